from .api import discard_values, equity, pass_values, reveal_opponents, reveal_values

__all__ = ["discard_values", "equity", "pass_values", "reveal_opponents", "reveal_values"]
