import { usersTable, apiKeysTable } from './users';
import { spacesTable } from './spaces';
import { bindingsTable } from './bindings';
import { versionsTable } from './versions';
import { setsTable, setItemsTable } from './sets';
import { sharesTable } from './shares';
import { commentsTable } from './comments';
import { helpTopicsTable, settingsTable } from './meta';

export {
  usersTable, apiKeysTable, spacesTable, bindingsTable, versionsTable, setsTable, setItemsTable,
  sharesTable, commentsTable, helpTopicsTable, settingsTable,
};

/** The whole schema, for drizzle's relational helpers. */
export const schema = {
  usersTable, apiKeysTable, spacesTable, bindingsTable, versionsTable, setsTable, setItemsTable,
  sharesTable, commentsTable, helpTopicsTable, settingsTable,
};
