-- The activity log is a record of what happened: no code path edits an entry, and the database
-- refuses it too. Deleting stays possible for the purge of a deleted user's entries.
CREATE FUNCTION "audit"."entries_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'activity log entries are append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "entries_append_only" BEFORE UPDATE ON "audit"."entries"
  FOR EACH ROW EXECUTE FUNCTION "audit"."entries_refuse_update"();
