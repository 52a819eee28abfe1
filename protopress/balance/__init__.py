"""The balance lab: thousands of seeded games in parallel, their statistics with
95% intervals, a PDF report and a JSON file with the same numbers, and the
comparison of two runs on common seeds. See docs/balance.md."""

from protopress.balance.compare import compare, format_comparison
from protopress.balance.report import (
    load_run,
    report_data,
    report_pdf,
    summarize_run,
    write_json,
    write_report,
)
from protopress.balance.run import BalanceRun, MissingExtra, run_balance
from protopress.balance.stats import summarize
from protopress.balance.words import headline

__all__ = [
    "BalanceRun",
    "MissingExtra",
    "compare",
    "format_comparison",
    "headline",
    "load_run",
    "report_data",
    "report_pdf",
    "run_balance",
    "summarize",
    "summarize_run",
    "write_json",
    "write_report",
]
