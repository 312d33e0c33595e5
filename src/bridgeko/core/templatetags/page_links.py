"""``{% page_links "slot" obj ... as links %}``: the links higher apps add to a slot of the page
(:mod:`bridgeko.core.page_links`)."""

from __future__ import annotations

from typing import Any

from django import template

from bridgeko.core import page_links as registry

register = template.Library()


@register.simple_tag(takes_context=True)
def page_links(context: Any, slot: str, *objects: Any) -> list[registry.Link]:
    return registry.links(slot, context.get("request"), *objects)
