"""The designer's workflow: start a project, and keep components in spreadsheets."""

from protopress.designer.scaffold import new_project
from protopress.designer.tables import (
    InvalidTable,
    Table,
    TableError,
    TableProblem,
    export_table,
    import_table,
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
    "new_project",
    "read_table",
    "table_to_components",
]
