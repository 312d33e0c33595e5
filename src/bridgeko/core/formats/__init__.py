"""Django format modules of the project (``FORMAT_MODULE_PATH``): how dates, times and numbers
are shown and read in Czech and in English. Django's own ``cs`` formats write "5. března 1999";
the project writes "5. 3. 1999" (as the regulations do) and reads "5. 3. 1999", "5.3.1999"
and ISO. ``USE_THOUSAND_SEPARATOR`` stays off (ids, years and form values are never grouped);
amounts are grouped explicitly by :mod:`bridgeko.core.l10n` (``{{ amount|money:currency }}``)."""
