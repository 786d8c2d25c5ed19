"""When two features count as correlated, for every engine.

The partial dependence widgets and Displays warn when a feature's
``|Spearman rho|`` with another reaches ``DEFAULT_CORRELATION_THRESHOLD``
(the functions, drop-ins for scikit-learn's, check only when asked);
``cluster_features`` and the comparison widget's correlation view group
features whose every pair reaches it.

0.8: past about 0.7 collinearity starts to distort what models estimate
(Dormann et al. 2013, "Collinearity: a review of methods to deal with it",
Ecography 36:27-46); at 0.8 two features share 64 % of their rank variance,
so one can stand in for the other, which is what makes permuting either
alone misleading. Lower it to group more loosely.
"""

DEFAULT_CORRELATION_THRESHOLD = 0.8
