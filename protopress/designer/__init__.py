"""The designer's workflow: start a project, and keep components in spreadsheets."""

from protopress.designer.scaffold import new_project
from protopress.designer.tables import (
    InvalidTable,
    Table,
    TableError,
    TableProblem,
    export_table,
    import_table,
    imported_count,
    read_table,
    table_to_components,
)

__all__ = [
    "InvalidTable",
    "Table",
    "TableError",
    "TableProblem",
    "export_table",
    "import_table",
    "imported_count",
    "new_project",
    "read_table",
    "table_to_components",
]
