"""Imported by pytest before any test module: stax before torch, so that
PyTorch's OpenMP workers sleep between operators instead of spinning on
the cores compiled code runs on (stax/__init__.py, stax/_threads.py)."""
import stax  # noqa: F401
