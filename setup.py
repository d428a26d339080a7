"""Build step for the optional C move-generator search (`lexicon._movegen`).

Everything else about the package is in pyproject.toml. The extension is optional: when no C compiler
is available the install still succeeds and `lexicon.movegen` uses its pure-Python search, which gives
identical move lists (tests/test_movegen.py checks that), only slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("lexicon._movegen", ["lexicon/_movegen.c"], optional=True,
                  extra_compile_args=["-O2", "-std=c99"]),
    ],
)
