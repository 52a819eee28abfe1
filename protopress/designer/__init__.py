"""The designer's workflow: start a project, and keep components in spreadsheets.

tables.py imports and exports catalogs; table_files.py reads CSV and XLSX files;
table_cells.py turns cells into field values by the kind's schema.
"""

from protopress.designer.scaffold import new_project
from protopress.designer.table_cells import table_to_components
from protopress.designer.table_files import (
    InvalidTable,
    Table,
    TableError,
    TableProblem,
    UnreadableTable,
    read_table,
)
from protopress.designer.tables import export_table, import_table, imported_count

__all__ = [
    "InvalidTable",
    "Table",
    "TableError",
    "TableProblem",
    "UnreadableTable",
    "export_table",
    "import_table",
    "imported_count",
    "new_project",
    "read_table",
    "table_to_components",
]
