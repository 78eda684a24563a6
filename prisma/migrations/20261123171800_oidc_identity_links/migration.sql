-- CreateTable
CREATE TABLE "identity_links" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_links_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_flows" (
    "id" SERIAL NOT NULL,
    "state_hash" TEXT NOT NULL,
    "browser_hash" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "handoff_hash" TEXT,
    "result_user_id" INTEGER,
    "result_issuer" TEXT,
    "result_subject" TEXT,
    "result_email" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "oidc_flows_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "identity_links_user_id_idx" ON "identity_links"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "identity_links_issuer_subject_key" ON "identity_links"("issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "oidc_flows_state_hash_key" ON "oidc_flows"("state_hash");

-- CreateIndex
CREATE UNIQUE INDEX "oidc_flows_handoff_hash_key" ON "oidc_flows"("handoff_hash");

-- CreateIndex
CREATE INDEX "oidc_flows_expires_at_idx" ON "oidc_flows"("expires_at");

-- AddForeignKey
ALTER TABLE "identity_links" ADD CONSTRAINT "identity_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
