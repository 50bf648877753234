// A trajectory class's review status with a fixed color per status.
import { Badge, type BadgeTone } from "../ui/badge";
import { CLASS_STATUS_LABEL, type ClassStatus } from "@/lib/learning/review/status";

const TONE: Record<ClassStatus, BadgeTone> = { ready: "blue", failing: "red", evidence: "gray", in_review: "violet", promoted: "green" };

export function ClassStatusBadge({ status }: { status: ClassStatus }) {
  return <Badge tone={TONE[status]}>{CLASS_STATUS_LABEL[status]}</Badge>;
}
