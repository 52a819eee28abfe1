"""protopress: design-prototyping and print kit for tabletop games."""

__version__ = "0.1.0"
