"""Logins throttled (issue 8, deliverable 6): django-axes refuses logins for a while after a
handful of wrong passwords for one account or from one address; the login page says so in
Czech and English; the lockout is in bridgeko's audit log; it ends after the cool-off."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.db.models import F
from django.test import Client
from django.urls import reverse

from bridgeko.accounts.account_audit import LOCKED_OUT, UNLOCKED
from bridgeko.audit.models import AuditEntry
from bridgeko.core import config
from tests.web.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

LIMIT = django_settings.AXES_FAILURE_LIMIT


def _client(language: str = "en", address: str = "10.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _login(client: Client, username: str, password: str, url: str | None = None) -> Any:
    return client.post(url or reverse("login"), {"username": username, "password": password})


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def _expire_lockouts() -> None:
    """Time travel: every failed login recorded happened longer ago than the cool-off."""
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - django_settings.AXES_COOLOFF_TIME - timedelta(minutes=1)
    )


def test_settings_lock_after_5_failures_for_15_minutes_by_account_and_address() -> None:
    assert LIMIT == 5 and timedelta(minutes=15) == django_settings.AXES_COOLOFF_TIME
    assert django_settings.AXES_LOCKOUT_PARAMETERS == ["username", "ip_address"]
    assert django_settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_200_wrong_passwords_then_the_right_one_does_not_log_in() -> None:
    make_user("alice")
    client = _client()
    statuses = [_login(client, "alice", f"wrong-{k}").status_code for k in range(200)]
    assert statuses[: LIMIT - 1] == [200] * (LIMIT - 1)  # the form again, "wrong password"
    assert set(statuses[LIMIT - 1 :]) == {429}  # refused from the limit on
    right = _login(client, "alice", PASSWORD)
    assert right.status_code == 429 and not _logged_in(client)
    # another address: the account itself is locked
    other = _client(address="10.0.0.99")
    assert _login(other, "alice", PASSWORD).status_code == 429 and not _logged_in(other)


def test_a_right_password_before_the_limit_logs_in_and_starts_the_count_anew() -> None:
    make_user("bob")
    client = _client()
    for _ in range(LIMIT - 1):
        _login(client, "bob", "wrong")
    assert _login(client, "bob", PASSWORD).status_code == 302 and _logged_in(client)
    client.logout()
    for _ in range(LIMIT - 1):
        assert _login(client, "bob", "wrong").status_code == 200
    assert _login(client, "bob", PASSWORD).status_code == 302


def test_logging_in_with_ones_own_account_does_not_reset_the_count_for_another() -> None:
    """An attacker holding a valid account cannot log in with it between guesses to go on."""
    make_user("victim")
    make_user("insider")
    attacker = _client(address="192.0.2.50")
    for _ in range(LIMIT - 1):
        _login(attacker, "victim", "guess")
    assert _login(attacker, "insider", PASSWORD).status_code == 302
    attacker.logout()
    assert _login(attacker, "victim", "guess").status_code == 429
    victim = _client(address="192.0.2.99")
    assert _login(victim, "victim", PASSWORD).status_code == 429


def test_one_address_trying_many_accounts_is_locked_but_not_the_accounts() -> None:
    make_user("carol")
    attacker = _client(address="192.0.2.7")
    for k in range(LIMIT):
        _login(attacker, f"guess{k}", "wrong")
    assert _login(attacker, "carol", PASSWORD).status_code == 429
    assert not _logged_in(attacker)
    carol = _client(address="192.0.2.8")  # carol herself, elsewhere
    assert _login(carol, "carol", PASSWORD).status_code == 302 and _logged_in(carol)


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        (
            "en",
            (
                "Logging in is temporarily refused.",
                "Too many wrong passwords for this account or from this address. Logging in is "
                "refused for 15 minutes; until then even the right password is not accepted.",
            ),
        ),
        (
            "cs",
            (
                "Přihlášení je dočasně odmítnuto.",
                "Příliš mnoho chybných hesel k tomuto účtu nebo z této adresy. Přihlášení je "
                "odmítnuto na 15 minut; do té doby neprojde ani správné heslo.",
            ),
        ),
    ],
)
def test_lockout_page_says_why_in_czech_and_english(language: str, texts: tuple[str, ...]) -> None:
    make_user("dana")
    client = _client(language)
    for _ in range(LIMIT):
        response = _login(client, "dana", "wrong")
    assert response.status_code == 429
    page = response.content.decode()
    for text in texts:
        assert text in page
    assert 'name="password"' in page and 'value="dana"' in page  # the login form stays
    assert "Account locked: too many login attempts" not in page  # not axes' plain default


def test_lockout_is_one_site_wide_audit_entry() -> None:
    erin = make_user("erin")
    client = _client(address="198.51.100.4")
    for _ in range(LIMIT + 20):
        _login(client, "erin", "wrong")
    _login(client, "erin", PASSWORD)
    entry = AuditEntry.objects.get(action=LOCKED_OUT)  # once, not once per refused attempt
    assert entry.edition is None and entry.user is None
    assert entry.object_type == "auth.user" and entry.object_id == str(erin.pk)
    assert entry.after["username"] == "erin" and entry.after["ip_address"] == "198.51.100.4"
    assert sorted(entry.after["locked_by"]) == ["ip_address", "username"]
    assert entry.after["limit"] == LIMIT and entry.after["minutes"] == 15
    assert "erin" in entry.summary and "198.51.100.4" in entry.summary
    assert PASSWORD not in str(entry.after) and "wrong" not in str(entry.after)


def test_lockout_ends_after_the_cool_off() -> None:
    make_user("frank")
    client = _client()
    for _ in range(LIMIT):
        _login(client, "frank", "wrong")
    assert _login(client, "frank", PASSWORD).status_code == 429
    _expire_lockouts()
    assert _login(client, "frank", PASSWORD).status_code == 302 and _logged_in(client)


def test_failure_limit_and_cool_off_come_from_the_settings(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    settings.AXES_COOLOFF_TIME = timedelta(minutes=1)
    make_user("gina")
    client = _client()
    assert _login(client, "gina", "wrong").status_code == 200
    response = _login(client, "gina", "wrong")
    assert response.status_code == 429
    assert "refused for 1 minute;" in response.content.decode()


def test_environment_sets_limit_and_minutes() -> None:
    env = {"BRIDGEKO_LOGIN_FAILURES": "8", "BRIDGEKO_LOGIN_LOCKOUT_MINUTES": "30"}
    assert config.positive_int(env, "BRIDGEKO_LOGIN_FAILURES", 5) == 8
    assert config.positive_int({}, "BRIDGEKO_LOGIN_FAILURES", 5) == 5
    for bad in ("0", "-1", "five", "9" * 40):
        with pytest.raises(config.ConfigError, match="BRIDGEKO_LOGIN_FAILURES"):
            config.positive_int({"BRIDGEKO_LOGIN_FAILURES": bad}, "BRIDGEKO_LOGIN_FAILURES", 5)


def test_client_address_from_the_proxy_header_when_configured(settings: Any) -> None:
    settings.CLIENT_IP_HEADER = "X-Real-IP"
    make_user("hana")
    proxy = "10.9.9.9"  # every request arrives from the proxy
    for k in range(LIMIT):
        Client(REMOTE_ADDR=proxy, HTTP_X_REAL_IP="203.0.113.5").post(
            reverse("login"), {"username": f"x{k}", "password": "wrong"}
        )
    assert AccessAttempt.objects.filter(ip_address="203.0.113.5").count() == LIMIT
    hana = Client(REMOTE_ADDR=proxy, HTTP_X_REAL_IP="203.0.113.6")
    assert _login(hana, "hana", PASSWORD).status_code == 302  # not locked with the attacker


def test_admin_login_is_throttled_too() -> None:
    make_user("root", is_staff=True, is_superuser=True)
    client = _client()
    url = reverse("admin:login")
    for _ in range(LIMIT):
        _login(client, "root", "wrong", url)
    response = _login(client, "root", PASSWORD, url)
    assert response.status_code == 429 and not _logged_in(client)


def test_admin_lifts_a_lockout_and_it_is_audited() -> None:
    root = make_user("root", is_staff=True, is_superuser=True)
    make_user("ivan")
    client = _client(address="10.1.1.1")
    for _ in range(LIMIT):
        _login(client, "ivan", "wrong")
    attempt = AccessAttempt.objects.get(username="ivan")
    admin = Client()
    admin.force_login(root)
    url = reverse("admin:axes_accessattempt_delete", args=[attempt.pk])
    assert admin.post(url, {"post": "yes"}).status_code == 302
    entry = AuditEntry.objects.get(action=UNLOCKED)
    assert entry.user == root and entry.edition is None
    assert entry.before["username"] == "ivan" and entry.before["failures"] == LIMIT
    assert _login(client, "ivan", PASSWORD).status_code == 302


def test_superuser_reads_the_lockout_in_the_audit_log_in_czech() -> None:
    root = make_user("root", is_staff=True, is_superuser=True)
    make_user("jana")
    client = _client(address="10.2.2.2")
    for _ in range(LIMIT):
        _login(client, "jana", "wrong")
    reader = _client("cs")
    reader.force_login(root)
    page = reader.get(reverse("audit:log")).content.decode()
    assert "Přihlašování odmítnuto na 15 min po 5 chybných heslech (účet jana" in page
