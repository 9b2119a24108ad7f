-- The gasless_request action an action comes straight from (newer toncenter classifier: a relayer delivered a signed
-- wallet request and paid its gas), as API v3 serves it: `parent_gasless_action` (src/actions serializer.ts). Null
-- for every other action and for the rows stored before this column.
ALTER TABLE actions ADD COLUMN IF NOT EXISTS parent_gasless_action Nullable(FixedString(64)) CODEC(ZSTD(1));
