import type { Config } from './config';
import type { DbKind, DB } from './db/types-handle';
import type { Mailer } from './modules/mail/mailer';

/** What every module needs, built once at start and passed in (nothing else reads process.env). */
export interface AppContext {
  config: Config;
  db: DB;
  dbKind: DbKind;
  /** Key material for token hashes and HMACs (SESSION_SECRET or the one kept in DATA_DIR). */
  secret: string;
  mailer: Mailer;
}
