"""The compiled (numba) twins of the rules: play-outs, luck values and the batched env's step.

Each kernel reads only the rules below it; :mod:`.kernelcache` stamps their on-disk cache.
"""
