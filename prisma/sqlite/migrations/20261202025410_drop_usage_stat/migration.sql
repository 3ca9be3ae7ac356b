-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "UsageStat";
PRAGMA foreign_keys=on;
