"""A whole account as one JSON document, and its restore into an account with no data.

One module a job:

- ``document``: the document declared once, a pydantic model for each version of the format
  (``BackupV1``, ``BackupV2``);
- ``writer``: the backup, streamed a batch of games at a time from one snapshot of the
  database, and gzip-compressed as it goes;
- ``check``: the restore check: a plain or gzip-compressed file read, validated with its
  version's model, then checked for what no shape can say (every game replayed through the
  rules), as the rows it will become;
- ``restore``: the restore writer: those rows in bulk inserts, in one transaction;
- ``stream``: the restore of an uploaded file, read, checked and written a batch of games at
  a time (its memory does not grow with the backup), in one transaction;
- ``csv_sheet``: one game's score sheet as CSV.
"""

from scorekeeper.services.backup.check import CODE
from scorekeeper.services.backup.check import MAX_UNPACKED
from scorekeeper.services.backup.check import check_text
from scorekeeper.services.backup.check import read_document
from scorekeeper.services.backup.check import refuse
from scorekeeper.services.backup.csv_sheet import game_csv
from scorekeeper.services.backup.document import FORMAT
from scorekeeper.services.backup.document import VERSION
from scorekeeper.services.backup.document import BackupV1
from scorekeeper.services.backup.document import BackupV2
from scorekeeper.services.backup.restore import is_empty
from scorekeeper.services.backup.restore import restore_account
from scorekeeper.services.backup.stream import restore_file
from scorekeeper.services.backup.writer import BATCH
from scorekeeper.services.backup.writer import document_chunks
from scorekeeper.services.backup.writer import export_account
from scorekeeper.services.backup.writer import gzipped

__all__ = [
    "BATCH",
    "CODE",
    "FORMAT",
    "MAX_UNPACKED",
    "VERSION",
    "BackupV1",
    "BackupV2",
    "check_text",
    "document_chunks",
    "export_account",
    "game_csv",
    "gzipped",
    "is_empty",
    "read_document",
    "refuse",
    "restore_account",
    "restore_file",
]
