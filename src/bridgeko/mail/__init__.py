"""E-mail to captains (issue 11, item 6): the apps below emit events from their services
(:mod:`bridgeko.core.events`); this app turns each into outbox rows inside the action's
transaction, and sends them after the commit in the background. See docs/web-mail.md."""
