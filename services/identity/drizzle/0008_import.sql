CREATE TABLE "identity"."user_import_rows" (
	"import_id" uuid NOT NULL,
	"actor_id" integer NOT NULL,
	"line" integer NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"role" text NOT NULL,
	"team" text,
	"pin_hash" text,
	"staged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_import_rows_import_id_line_pk" PRIMARY KEY("import_id","line")
);
--> statement-breakpoint
CREATE INDEX "user_import_rows_staged_idx" ON "identity"."user_import_rows" USING btree ("staged_at");