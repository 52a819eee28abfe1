"""Rules as data: a rules file (YAML or JSON) compiled into an engine of the contract."""
