"""The service layer: load, call the rules, save; one transaction per action.

Views (pages and API alike) call these functions and translate a ``Refusal`` into a form
message or a JSON error, so both show the same sentences.
"""
