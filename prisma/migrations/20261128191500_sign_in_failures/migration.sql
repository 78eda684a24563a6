-- CreateTable
CREATE TABLE "sign_in_failures" (
    "user_id" INTEGER NOT NULL,
    "passwords" INTEGER NOT NULL DEFAULT 0,
    "codes" INTEGER NOT NULL DEFAULT 0,
    "last_at" TIMESTAMP(3) NOT NULL,
    "last_ip" TEXT,

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("user_id")
);

-- AddForeignKey
ALTER TABLE "sign_in_failures" ADD CONSTRAINT "sign_in_failures_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
