"""The ``"learned"`` strategy family: its parameter layout and shipped vectors
(:mod:`~anaconda_sim.strategies.learned.params`), its win table
(:mod:`~anaconda_sim.strategies.learned.winprob`) and its decisions as numba
kernels (:mod:`~anaconda_sim.strategies.learned.play`), which the strategies'
dispatch calls. Its learning by iterated best response sits above the
analyses it uses: :func:`anaconda_sim.learning.learn`."""
