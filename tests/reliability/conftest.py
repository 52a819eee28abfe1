"""The reliability tests' marker: `kill` tests start protopress and SIGKILL it."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "kill: starts protopress in a subprocess and SIGKILLs it (skipped where there is "
        "no SIGKILL; deselect with -m 'not kill')",
    )
