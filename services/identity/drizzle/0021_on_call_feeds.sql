CREATE TABLE "identity"."on_call_feeds" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity"."on_call_feeds" ADD CONSTRAINT "on_call_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "on_call_feeds_token_hash_key" ON "identity"."on_call_feeds" USING btree ("token_hash");