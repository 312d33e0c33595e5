"""English: "5 March 1999", "19:00", "5 March 1999, 19:00", "1,200"."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
FIRST_DAY_OF_WEEK = 1  # Monday (a European competition)
# Day first, never "3/5/1999" (which day is that?); the Czech way is read too. Django adds ISO.
DATE_INPUT_FORMATS = ["%d %B %Y", "%d %b %Y", "%B %d, %Y", "%Y-%m-%d", "%d. %m. %Y", "%d.%m.%Y"]
TIME_INPUT_FORMATS = ["%H:%M", "%H:%M:%S"]
DATETIME_INPUT_FORMATS = [
    "%d %B %Y, %H:%M",
    "%d %B %Y %H:%M",
    "%d %b %Y, %H:%M",
    "%d %b %Y %H:%M",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%d. %m. %Y %H:%M",
    "%d.%m.%Y %H:%M",
]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
