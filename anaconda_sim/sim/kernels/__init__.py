"""numba kernels of the fast path (no validation: the public layers check input).

``deal``: complete deals under any rules. ``showdown``: the showdown model
of the pass and discard analyses. ``reveal``: deals played from the discard
on, one per reveal order.
"""
