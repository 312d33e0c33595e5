"""Czech: "5. 3. 1999", "19:00", "5. 3. 1999 19:00", "1 200" (a non-breaking space)."""

DATE_FORMAT = "j. n. Y"
SHORT_DATE_FORMAT = "j. n. Y"
TIME_FORMAT = "G:i"
DATETIME_FORMAT = "j. n. Y G:i"
SHORT_DATETIME_FORMAT = "j. n. Y G:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j. n."
FIRST_DAY_OF_WEEK = 1  # Monday
# The first format is not the one shown (a form shows DATE_FORMAT); Django adds ISO formats.
DATE_INPUT_FORMATS = ["%d. %m. %Y", "%d.%m.%Y", "%Y-%m-%d"]
TIME_INPUT_FORMATS = ["%H:%M", "%H:%M:%S", "%H.%M"]
DATETIME_INPUT_FORMATS = [
    "%d. %m. %Y %H:%M",
    "%d.%m.%Y %H:%M",
    "%d. %m. %Y %H:%M:%S",
    "%d.%m.%Y %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%d %H:%M:%S",
]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"  # non-breaking space
NUMBER_GROUPING = 3
