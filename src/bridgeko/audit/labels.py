"""Readable names of the audit actions and of the fields of their before/after data.

Every action code recorded anywhere (``bridgeko.<object>.<verb>``) has a label here
(``tests/web/test_audit_labels.py`` finds the codes in the sources and fails on one without a
label or without its Czech text). A field without a label is shown by its key. The labels are
translated with a context (``audit action`` / ``audit field``), so that they never clash with
another text of the same English wording.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from bridgeko.core.collation import search_text

__all__ = ["ACTION_LABELS", "FIELD_LABELS", "action_label", "actions_matching", "field_label"]


ACTION_LABELS: dict[str, Promise] = {
    "bridgeko.account.changed": pgettext_lazy("audit action", "Account changed"),
    "bridgeko.account.created": pgettext_lazy("audit action", "Account created"),
    "bridgeko.account.deleted": pgettext_lazy("audit action", "Account deleted"),
    "bridgeko.account.locked_out": pgettext_lazy(
        "audit action", "Account locked after failed logins"
    ),
    "bridgeko.account.password_changed": pgettext_lazy("audit action", "Password changed"),
    "bridgeko.account.unlocked": pgettext_lazy("audit action", "Account unlocked"),
    "bridgeko.account.language_set": pgettext_lazy("audit action", "Language chosen"),
    "bridgeko.mail.resent": pgettext_lazy("audit action", "Mail sent again"),
    # appeals (R16)
    "bridgeko.appeal.committee": pgettext_lazy("audit action", "Appeals committee named"),
    "bridgeko.appeal.decided": pgettext_lazy("audit action", "Appeal decided"),
    "bridgeko.appeal.lodged": pgettext_lazy("audit action", "Appeal lodged"),
    "bridgeko.appeal.withdrawn": pgettext_lazy("audit action", "Appeal withdrawn"),
    "bridgeko.appeals.settings": pgettext_lazy("audit action", "Appeals settings changed"),
    # end of appeals
    "bridgeko.board.cleared": pgettext_lazy("audit action", "Board result cleared"),
    "bridgeko.board.saved": pgettext_lazy("audit action", "Board result saved"),
    "bridgeko.bracket.moved": pgettext_lazy("audit action", "Bracket moved on"),
    "bridgeko.card.replaced": pgettext_lazy("audit action", "Convention card replaced"),
    "bridgeko.card.uploaded": pgettext_lazy("audit action", "Convention card uploaded"),
    "bridgeko.demo.loaded": pgettext_lazy("audit action", "Demo data loaded"),
    "bridgeko.draw.announced": pgettext_lazy("audit action", "Draw announced"),
    "bridgeko.draw.committed": pgettext_lazy("audit action", "Draw commitment published"),
    "bridgeko.draw.held": pgettext_lazy("audit action", "Draw held"),
    "bridgeko.draw.scheme_set": pgettext_lazy("audit action", "Playing scheme set"),
    "bridgeko.draw.manual_entered": pgettext_lazy("audit action", "Draw entered by hand"),
    "bridgeko.line_up.cleared": pgettext_lazy("audit action", "Line-up cleared by the TD"),
    "bridgeko.line_up.set": pgettext_lazy("audit action", "Line-up given"),
    "bridgeko.match.not_rescheduled": pgettext_lazy(
        "audit action", "Rescheduling refused by the TD"
    ),
    "bridgeko.match.rescheduled": pgettext_lazy("audit action", "Match rescheduled by agreement"),
    "bridgeko.match.swapped": pgettext_lazy("audit action", "Home and visitors swapped"),
    "bridgeko.place.decided": pgettext_lazy("audit action", "Place decided by the organiser"),
    "bridgeko.place.withdrawn": pgettext_lazy(
        "audit action", "Organiser's decision on a place withdrawn"
    ),
    "bridgeko.penalty.added": pgettext_lazy("audit action", "Penalty or adjustment recorded"),
    "bridgeko.penalty.withdrawn": pgettext_lazy("audit action", "Penalty or adjustment withdrawn"),
    "bridgeko.results.imported": pgettext_lazy("audit action", "Results imported from a file"),
    "bridgeko.record.submitted": pgettext_lazy("audit action", "Match record submitted (R14.2b)"),
    "bridgeko.record.revoked": pgettext_lazy("audit action", "Match record withdrawn"),
    "bridgeko.record.confirmed": pgettext_lazy("audit action", "Match record confirmed"),
    "bridgeko.record.disputed": pgettext_lazy("audit action", "Match record disputed"),
    "bridgeko.record.approved": pgettext_lazy("audit action", "Match record approved"),
    "bridgeko.record.rejected": pgettext_lazy("audit action", "Match record rejected"),
    "bridgeko.date.proposed": pgettext_lazy("audit action", "Another date proposed (R14.2)"),
    "bridgeko.date.accepted": pgettext_lazy("audit action", "Proposed date accepted"),
    "bridgeko.date.declined": pgettext_lazy("audit action", "Proposed date declined"),
    "bridgeko.date.revoked": pgettext_lazy("audit action", "Proposed date withdrawn"),
    "bridgeko.date.ruled": pgettext_lazy("audit action", "TD's ruling on an agreed date (I12)"),
    "bridgeko.bridgemate.tables": pgettext_lazy(
        "audit action", "Bridgemate tables of a match chosen"
    ),
    "bridgeko.bridgemate.finished": pgettext_lazy(
        "audit action", "Bridgemate file no longer followed (segment over)"
    ),
    "bridgeko.segment.closed": pgettext_lazy("audit action", "Segment closed by the TD"),
    "bridgeko.segment.room_ended": pgettext_lazy("audit action", "End of a segment recorded"),
    "bridgeko.segment.started": pgettext_lazy("audit action", "Segment started"),
    "bridgeko.segment.totals": pgettext_lazy("audit action", "Segment totals entered"),
    "bridgeko.edition.changed": pgettext_lazy("audit action", "Edition changed"),
    "bridgeko.edition.created": pgettext_lazy("audit action", "Edition created"),
    "bridgeko.edition.stage_changed": pgettext_lazy("audit action", "Stage of the edition changed"),
    "bridgeko.entries.closed": pgettext_lazy("audit action", "Entries closed"),
    "bridgeko.entries.late_decided": pgettext_lazy("audit action", "Late entry decided"),
    "bridgeko.entries.reopened": pgettext_lazy("audit action", "Entries reopened"),
    "bridgeko.group.changed": pgettext_lazy("audit action", "Permission group changed"),
    "bridgeko.group.created": pgettext_lazy("audit action", "Permission group created"),
    "bridgeko.group.deleted": pgettext_lazy("audit action", "Permission group deleted"),
    "bridgeko.no_show.corrected": pgettext_lazy("audit action", "Failure to appear corrected"),
    "bridgeko.no_show.recorded": pgettext_lazy("audit action", "Failure to appear recorded"),
    "bridgeko.no_show.withdrawn": pgettext_lazy("audit action", "Failure to appear withdrawn"),
    "bridgeko.player.changed": pgettext_lazy("audit action", "Player changed"),
    "bridgeko.player.created": pgettext_lazy("audit action", "Player added to the register"),
    "bridgeko.player.deleted": pgettext_lazy("audit action", "Player deleted from the register"),
    "bridgeko.player.import_undone": pgettext_lazy("audit action", "Elo list import undone"),
    "bridgeko.player.imported": pgettext_lazy("audit action", "Elo list imported"),
    "bridgeko.role.assigned": pgettext_lazy("audit action", "Role assigned"),
    "bridgeko.role.revoked": pgettext_lazy("audit action", "Role revoked"),
    "bridgeko.schedule.changed": pgettext_lazy("audit action", "Match dates changed"),
    "bridgeko.schedule.defaults": pgettext_lazy("audit action", "Schedule defaults set"),
    "bridgeko.schedule.published": pgettext_lazy("audit action", "Match dates published"),
    "bridgeko.team.changed": pgettext_lazy("audit action", "Team changed"),
    "bridgeko.team.conditions_recorded": pgettext_lazy(
        "audit action", "Conditions of entry recorded"
    ),
    "bridgeko.team.entered": pgettext_lazy("audit action", "Team entered"),
    "bridgeko.team.fee_overridden": pgettext_lazy("audit action", "Entry fee set by the organiser"),
    "bridgeko.team.late_entered": pgettext_lazy("audit action", "Late entry of a team"),
    "bridgeko.team.pairs_declared": pgettext_lazy("audit action", "Pairs declared"),
    "bridgeko.team.roster_exception": pgettext_lazy(
        "audit action", "Roster exception by the chief TD"
    ),
    # boards of a segment (issue 11)
    "bridgeko.dealset.committed": pgettext_lazy(
        "audit action", "Seed of a set of boards committed"
    ),
    "bridgeko.dealset.made": pgettext_lazy("audit action", "Set of boards made"),
    "bridgeko.dealset.loaded": pgettext_lazy("audit action", "Deals played loaded from a file"),
    "bridgeko.dealset.analysis_restarted": pgettext_lazy(
        "audit action", "Analysis of a set of boards restarted"
    ),
}
"""Action code -> readable name (in the reader's language when shown)."""

FIELD_LABELS: dict[str, Promise] = {
    "accepted": pgettext_lazy("audit field", "Entered"),
    "account_created": pgettext_lazy("audit field", "New account"),
    "cancelled": pgettext_lazy("audit field", "Competition cancelled"),
    "card_received": pgettext_lazy("audit field", "Convention card received"),
    "changed": pgettext_lazy("audit field", "Ratings changed"),
    "closed_room": pgettext_lazy("audit field", "Closed room"),
    "club": pgettext_lazy("audit field", "Club"),
    "commitment": pgettext_lazy("audit field", "Commitment"),
    "created": pgettext_lazy("audit field", "New in the register"),
    "demo": pgettext_lazy("audit field", "Demo data"),
    "edition": pgettext_lazy("audit field", "Edition"),
    "email": pgettext_lazy("audit field", "E-mail"),
    "encoding": pgettext_lazy("audit field", "Encoding"),
    "exception_reason": pgettext_lazy("audit field", "Reason for the exception"),
    "federation_id": pgettext_lazy("audit field", "Federation id"),
    "fee_override_amount": pgettext_lazy("audit field", "Fee set by the organiser"),
    "fee_override_reason": pgettext_lazy("audit field", "Reason for the fee"),
    "fee_paid": pgettext_lazy("audit field", "Amount paid"),
    "fee_received": pgettext_lazy("audit field", "Fee received"),
    "file": pgettext_lazy("audit field", "File"),
    "first_date": pgettext_lazy("audit field", "First date"),
    "first_name": pgettext_lazy("audit field", "First name"),
    "form_received": pgettext_lazy("audit field", "Entry form received"),
    "groups": pgettext_lazy("audit field", "Groups"),
    "has_password": pgettext_lazy("audit field", "Has a password"),
    "held_at": pgettext_lazy("audit field", "Held"),
    "id": pgettext_lazy("audit field", "Id"),
    "import": pgettext_lazy("audit field", "Import"),
    "in_time": pgettext_lazy("audit field", "In time"),
    "is_active": pgettext_lazy("audit field", "Active"),
    "is_staff": pgettext_lazy("audit field", "Access to the administration"),
    "is_superuser": pgettext_lazy("audit field", "Superuser"),
    "last_name": pgettext_lazy("audit field", "Surname"),
    "late_entry": pgettext_lazy("audit field", "Late entry"),
    "late_reason": pgettext_lazy("audit field", "Reason for the late entry"),
    "legacy_match": pgettext_lazy("audit field", "Match (old record)"),
    "match": pgettext_lazy("audit field", "Match"),
    "member": pgettext_lazy("audit field", "Federation member"),
    "method": pgettext_lazy("audit field", "Method"),
    "missing": pgettext_lazy("audit field", "Missing from the file"),
    "missing_players": pgettext_lazy("audit field", "Ratings of the missing players"),
    "name": pgettext_lazy("audit field", "Name"),
    "new": pgettext_lazy("audit field", "New ratings"),
    "not_accepted": pgettext_lazy("audit field", "Not entered"),
    "note": pgettext_lazy("audit field", "Note"),
    "numbers": pgettext_lazy("audit field", "Draw numbers"),
    "open_room": pgettext_lazy("audit field", "Open room"),
    "pairs": pgettext_lazy("audit field", "Pairs"),
    "password_changed": pgettext_lazy("audit field", "Password changed"),
    "place": pgettext_lazy("audit field", "Place"),
    "players": pgettext_lazy("audit field", "Players (ids)"),
    "previous": pgettext_lazy("audit field", "Previous"),
    "published_at": pgettext_lazy("audit field", "Published"),
    "ratings": pgettext_lazy("audit field", "Ratings on the list"),
    "reason": pgettext_lazy("audit field", "Reason"),
    "reference_date": pgettext_lazy("audit field", "Reference date"),
    "refunds": pgettext_lazy("audit field", "Refunds"),
    "regulations": pgettext_lazy("audit field", "Regulations"),
    "role": pgettext_lazy("audit field", "Role"),
    "roster": pgettext_lazy("audit field", "Roster"),
    "rounds": pgettext_lazy("audit field", "Rounds"),
    "rows": pgettext_lazy("audit field", "Rows"),
    "scheduled_at": pgettext_lazy("audit field", "Date and time"),
    "seed": pgettext_lazy("audit field", "Seed"),
    "segment": pgettext_lazy("audit field", "Segment"),
    "slug": pgettext_lazy("audit field", "Short name"),
    "stage": pgettext_lazy("audit field", "Stage"),
    "started_at": pgettext_lazy("audit field", "Started"),
    "team": pgettext_lazy("audit field", "Team"),
    "team_id": pgettext_lazy("audit field", "Team"),
    "timely_notice": pgettext_lazy("audit field", "Timely notice"),
    "unchanged": pgettext_lazy("audit field", "Ratings unchanged"),
    "undo": pgettext_lazy("audit field", "Undo"),
    "updated": pgettext_lazy("audit field", "Updated in the register"),
    "user": pgettext_lazy("audit field", "User"),
    "username": pgettext_lazy("audit field", "Username"),
    "withdrawn_at": pgettext_lazy("audit field", "Withdrawn"),
    "withdrawn_reason": pgettext_lazy("audit field", "Reason for the withdrawal"),
    # standings and schedule (matches: swap_home, reschedule, decide_place)
    "agreed_by": pgettext_lazy("audit field", "Agreed by"),
    "decision": pgettext_lazy("audit field", "Decision"),
    "home": pgettext_lazy("audit field", "Home team"),
    "location": pgettext_lazy("audit field", "Place of play"),
    "notice_received_at": pgettext_lazy("audit field", "Notice received"),
    "replaced": pgettext_lazy("audit field", "Replaced decisions"),
    "start": pgettext_lazy("audit field", "Start"),
    "swap_reason": pgettext_lazy("audit field", "Reason for the swap"),
    "swapped": pgettext_lazy("audit field", "Home and visitors swapped"),
    "td": pgettext_lazy("audit field", "TD"),
    "visitors": pgettext_lazy("audit field", "Visiting team"),
    # boards of a segment (issue 11)
    "source": pgettext_lazy("audit field", "Source of the deals"),
    "event": pgettext_lazy("audit field", "Event (dealing)"),
    "session": pgettext_lazy("audit field", "Session (dealing)"),
    "boards": pgettext_lazy("audit field", "Boards"),
    "made_at": pgettext_lazy("audit field", "Set made"),
    "by_agreement": pgettext_lazy("audit field", "Computer-dealt by agreement"),
    "first": pgettext_lazy("audit field", "First board"),
    "last": pgettext_lazy("audit field", "Last board"),
    "done": pgettext_lazy("audit field", "Boards analysed"),
    "error": pgettext_lazy("audit field", "Error"),
    "room": pgettext_lazy("audit field", "Room"),
    "ended_at": pgettext_lazy("audit field", "Ended"),
}
"""Key of the before/after data -> readable name; other keys are shown as they are."""


def action_label(code: str) -> str:
    """The readable name of an action in the active language (the code when unknown)."""
    label = ACTION_LABELS.get(code)
    return str(label) if label is not None else code


def field_label(key: str) -> str:
    """The readable name of a before/after field in the active language (else the key)."""
    label = FIELD_LABELS.get(key)
    return str(label) if label is not None else key


def actions_matching(text: str) -> list[str]:
    """The action codes whose readable name (in the active language) contains ``text``,
    ignoring case and diacritics ("hrac" finds "Hráč …")."""
    folded = search_text(text)
    if not folded:
        return []
    return sorted(code for code in ACTION_LABELS if folded in search_text(action_label(code)))
