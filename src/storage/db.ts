import type Database from "better-sqlite3";

/** An open SQLite connection: every store and migration takes one (database.ts opens it). */
export type Db = Database.Database;
