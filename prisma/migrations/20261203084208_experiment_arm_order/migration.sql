-- Each experiment case keeps the order it runs its arms in (a seeded counterbalanced order,
-- lib/experiments/arm-order.ts). Cases created before keep an empty list: they ran their arms
-- in the declared order, and their reports say so.
ALTER TABLE "experiment_cases" ADD COLUMN "arm_order" TEXT[] DEFAULT ARRAY[]::TEXT[];
