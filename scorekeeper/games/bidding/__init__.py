"""The bid-then-take-tricks family (Oh Hell, Wizard, Spades): what those games share.

- ``words.py``: what the rules say about bids ("made 9 of 11", "2 over"), pure Python;
- ``form.py``: the page's form reader (``bid-<seat>``, ``trick-<seat>``), for the games'
  own readers (the rules never import it);
- ``templates/_bidding.html``: the bids and tricks forms, found as ``games/bidding/...``;
- ``static/bidding.js``: the script that keeps the bids' status line right;
- ``plugin.py``: ``FAMILY``, the folder the app serves those templates and scripts from.

The family imports none of its games; each game may import it.
"""
