-- Imported Agent Skills keep their whole folder: skill_imports holds each imported skill's origin
-- and review warnings, skill_files every file of its folder byte for byte.

-- CreateTable
CREATE TABLE "skill_imports" (
    "skill_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "folder" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "skill_imports_pkey" PRIMARY KEY ("skill_id")
);

-- CreateTable
CREATE TABLE "skill_files" (
    "skill_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "executable" BOOLEAN NOT NULL,
    "script" BOOLEAN NOT NULL,
    "text" BOOLEAN NOT NULL,

    CONSTRAINT "skill_files_pkey" PRIMARY KEY ("skill_id","path")
);

-- CreateIndex
CREATE INDEX "skill_imports_agent_id_idx" ON "skill_imports"("agent_id");

-- CreateIndex
CREATE INDEX "skill_files_agent_id_idx" ON "skill_files"("agent_id");

-- AddForeignKey
ALTER TABLE "skill_imports" ADD CONSTRAINT "skill_imports_skill_id_fkey" FOREIGN KEY ("skill_id") REFERENCES "skills"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "skill_files" ADD CONSTRAINT "skill_files_skill_id_fkey" FOREIGN KEY ("skill_id") REFERENCES "skills"("id") ON DELETE CASCADE ON UPDATE CASCADE;
