"""The draw service holds the draw only with a seed that keeps the one seed rule (I8).

The service calls the engine's ``hold_draw``, which applies the rule of
``bridgeko.bridge.commit_reveal``: a stored seed that is too short or not random (one byte
value, a short repeating pattern) is refused with the rule's message, in the user's language.
"""

from __future__ import annotations

import hashlib

import pytest
from django.utils import translation

from bridgeko.core.errors import ServiceError
from bridgeko.draw import services
from bridgeko.draw.models import Draw
from bridgeko.entries.models import Team
from tests.web.conftest import World, extend
from tests.web.test_draw import DRAW_AT, announce_and_commit, enter_13

WEAK = [
    (bytes(15) + b"\x01", None),  # 16 bytes, no repeated pattern: accepted (the control)
    (
        hashlib.sha256(b"x").digest()[:15],
        (
            "a seed needs at least 16 bytes (32 hex digits), this one has 15",
            "osudí musí mít nejméně 16 bajtů (32 šestnáctkových číslic), toto má 15",
        ),
    ),
    (
        bytes(32),
        (
            "a seed of 32 bytes all equal to 00 is not random; make the seed with a random "
            "generator",
            "osudí z 32 bajtů, které jsou všechny rovny 00, není náhodné; vytvořte osudí "
            "generátorem náhodných čísel",
        ),
    ),
    (
        bytes.fromhex("5eed" * 16),
        (
            "a seed that repeats the 2 bytes “5eed” is not random; make the seed with a random "
            "generator",
            "osudí, které stále opakuje skupinu bajtů „5eed“ (délka skupiny: 2), není náhodné; "
            "vytvořte osudí generátorem náhodných čísel",
        ),
    ),
]


@pytest.fixture
def teams(world: World) -> list[Team]:
    return extend(world, "teams", enter_13)


@pytest.mark.django_db
@pytest.mark.parametrize(("seed", "messages"), WEAK)
def test_I8_draw_service_refuses_a_weak_stored_seed(
    world: World, teams: list[Team], seed: bytes, messages: tuple[str, str] | None
) -> None:
    announce_and_commit(world)
    # A seed stored some other way (an older version, an edit in the database) and its hash.
    Draw.objects.filter(edition=world.edition).update(
        seed_hex=seed.hex(), commitment=hashlib.sha256(seed).hexdigest()
    )
    organiser = world.users["organiser"]
    if messages is None:
        draw = services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
        assert draw.held_at is not None
        return
    english, czech = messages
    with translation.override("en"), pytest.raises(ServiceError) as info:
        services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    assert info.value.message == english
    with translation.override("cs"), pytest.raises(ServiceError) as info:
        services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    assert info.value.message == czech
    assert Draw.objects.get(edition=world.edition).held_at is None
