"""A club's season: quiz events grouped in a series and a season standing
(``standing`` the formulas, then ``schemas``, ``store``, ``service`` and ``routes``)."""
