// SesameSQLite
