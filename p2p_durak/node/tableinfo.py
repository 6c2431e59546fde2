"""What a table advertises on the LAN, and its DNS-SD TXT record encoding.

A table is one DNS-SD service instance of type ``_durak._tcp.local.``. The instance label is the
table id; the SRV record carries the port the node listens on; the TXT record carries the rest:

=========  ==========================================================  =========================
key        value                                                        example
=========  ==========================================================  =========================
txtvers    layout version of this TXT record (only ``1`` is accepted)   ``1``
proto      wire-protocol version of the node (decimal, 0..65535)        ``1``
id         table id: 32 lowercase hex digits (equals the instance label)
name       table name, UTF-8, 1..48 characters, no control characters   ``Kitchen table``
variant    rules preset id: ``[a-z0-9][a-z0-9._-]{0,31}``               ``podkidnoy-36``
rules      SHA-256 of the canonical rules, 64 lowercase hex digits
taken      seats taken (decimal)                                        ``2``
free       seats free (decimal); 2 <= taken + free <= 6                 ``1``
fp         the hosting node's fingerprint (``PeerId.fingerprint``)        ``ABCD-EFGH-IJKL-MNOP``
timer      the clocks: seconds per move (0: none), ``bot`` or ``lose``   ``30,bot,60``
           on expiry, grace seconds. Optional: absent means ``0,bot,60``
           (what a node without the key runs).
=========  ==========================================================  =========================

Decoding is strict because any host on the LAN can advertise anything: the raw TXT bytes are
parsed here (not zeroconf's forgiving dict), keys are case-insensitive (RFC 6763 §6.4), a
repeated or missing known key, a malformed value, an empty string or a truncated record is
refused with :class:`TableAdError` naming the reason. Unknown keys are ignored (RFC 6763 §6.4)
so later versions can add fields, but they must still be well-formed.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
import unicodedata
from dataclasses import dataclass

from p2p_durak.protocol.errors import LocalProtocolError
from p2p_durak.protocol.identity import fingerprint
from p2p_durak.protocol.messages import NO_TURN_TIMER, PROTOCOL_VERSION, TimeoutPolicy, TurnTimer

SERVICE_TYPE = "_durak._tcp.local."
TXT_VERSION = 1
MIN_SEATS = 2
MAX_SEATS = 6
MAX_NAME_CHARS = 48
MAX_TXT_STRINGS = 32
MAX_PROTOCOL_VERSION = 0xFFFF

_TABLE_ID_RE = re.compile(r"[0-9a-f]{32}")
# The fingerprint format belongs to the protocol: base32 in dash-separated groups of four.
_FINGERPRINT_CHARS = len(fingerprint(bytes(32)).replace("-", ""))
_FINGERPRINT_GROUPS = _FINGERPRINT_CHARS // 4
_FINGERPRINT_RE = re.compile(r"[A-Z2-7]{4}(?:-[A-Z2-7]{4})" + f"{{{_FINGERPRINT_GROUPS - 1}}}")
_RULES_HASH_RE = re.compile(r"[0-9a-f]{64}")
_VARIANT_RE = re.compile(r"[a-z0-9][a-z0-9._-]{0,31}")
_DECIMAL_RE = re.compile(r"0|[1-9][0-9]{0,5}")
_TIMER_RE = re.compile(r"(0|[1-9][0-9]{0,3}),(bot|lose),([1-9][0-9]{0,3})")
_POLICY_NAMES = {TimeoutPolicy.BOT: "bot", TimeoutPolicy.LOSE: "lose"}
_KEY_RE = re.compile(r"[\x20-\x3c\x3e-\x7e]{1,9}")  # printable ASCII except '=' (RFC 6763 §6.4)
# Characters that would let a hostile name rewrite a terminal line or reorder text on screen.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})


class TableAdError(ValueError):
    """A table advertisement (local or received) that breaks the schema; ``str()`` says why."""


def new_table_id() -> str:
    """A fresh random table id (128 bits, lowercase hex)."""
    return secrets.token_hex(16)


def instance_name(table_id: str) -> str:
    """The DNS-SD service instance name of a table."""
    return f"{table_id}.{SERVICE_TYPE}"


def table_id_from_instance(name: str) -> str | None:
    """The table id in an instance name of our service type, or None if it is not one of ours."""
    suffix = "." + SERVICE_TYPE
    if not name.lower().endswith(suffix):
        return None
    label = name[: -len(suffix)]
    return label if _TABLE_ID_RE.fullmatch(label) else None


@dataclass(frozen=True, slots=True)
class TableAd:
    """One advertised table. Validated on construction; raises :class:`TableAdError`."""

    table_id: str
    name: str
    variant: str
    rules_hash: str
    seats_taken: int
    seats_free: int
    fingerprint: str
    port: int
    protocol_version: int
    timer: TurnTimer = NO_TURN_TIMER

    def __post_init__(self) -> None:
        _check_hex("table id", self.table_id, _TABLE_ID_RE, "32 lowercase hex digits")
        _check_name(self.name)
        if not isinstance(self.variant, str) or not _VARIANT_RE.fullmatch(self.variant):
            raise TableAdError(f"variant {self.variant!r} is not a preset id")
        _check_hex("rules hash", self.rules_hash, _RULES_HASH_RE, "64 lowercase hex digits")
        _check_hex("fingerprint", self.fingerprint, _FINGERPRINT_RE, "a node fingerprint")
        _check_int("seats taken", self.seats_taken, 0, MAX_SEATS)
        _check_int("seats free", self.seats_free, 0, MAX_SEATS)
        seats = self.seats_taken + self.seats_free
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise TableAdError(f"a table has {MIN_SEATS}..{MAX_SEATS} seats, not {seats}")
        _check_int("port", self.port, 1, 0xFFFF)
        _check_int("protocol version", self.protocol_version, 0, MAX_PROTOCOL_VERSION)
        if not isinstance(self.timer, TurnTimer):
            raise TableAdError(f"timer {self.timer!r} is not a TurnTimer")

    @property
    def seats(self) -> int:
        return self.seats_taken + self.seats_free

    @property
    def compatible(self) -> bool:
        """Whether this node speaks the table's protocol version: another version is listed
        as such and never dialled (its host would refuse the join, or worse, misread it)."""
        return self.protocol_version == PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class TableSeen:
    """A table appeared on the network or its advertisement changed.

    ``addresses`` are the IPv4 addresses the advertiser published (where to dial ``table.port``);
    never empty.
    """

    table: TableAd
    addresses: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TableGone:
    """A table was withdrawn (or its records expired)."""

    table_id: str


DiscoveryEvent = TableSeen | TableGone


def _check_hex(what: str, value: object, pattern: re.Pattern[str], shape: str) -> None:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise TableAdError(f"{what} {value!r} is not {shape}")


def _check_int(what: str, value: object, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise TableAdError(f"{what} {value!r} is not an integer in {low}..{high}")


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name:
        raise TableAdError("table name is empty")
    if len(name) > MAX_NAME_CHARS:
        raise TableAdError(f"table name is longer than {MAX_NAME_CHARS} characters")
    if name != name.strip():
        raise TableAdError("table name starts or ends with white space")
    for char in name:
        if char in _BIDI_CONTROLS or unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise TableAdError(f"table name contains the control character U+{ord(char):04X}")
    if unicodedata.normalize("NFC", name) != name:
        raise TableAdError("table name is not in Unicode normal form C")


def clean_table_name(text: str) -> str:
    """A user-typed table name made acceptable where possible (NFC, trimmed, shortened).

    Control characters are not removed: a name containing them is still refused by
    :class:`TableAd`, so the user sees why.
    """
    return unicodedata.normalize("NFC", text).strip()[:MAX_NAME_CHARS].strip()


# --- TXT wire format -------------------------------------------------------------------------


def encode_txt(table: TableAd) -> bytes:
    """The raw DNS TXT RDATA for a table (length-prefixed ``key=value`` strings)."""
    pairs = (
        ("txtvers", str(TXT_VERSION)),
        ("proto", str(table.protocol_version)),
        ("id", table.table_id),
        ("name", table.name),
        ("variant", table.variant),
        ("rules", table.rules_hash),
        ("taken", str(table.seats_taken)),
        ("free", str(table.seats_free)),
        ("fp", table.fingerprint),
        ("timer", encode_timer(table.timer)),
    )
    out = bytearray()
    for key, value in pairs:
        item = f"{key}={value}".encode()
        if len(item) > 255:  # unreachable while the field limits hold; kept as a tripwire
            raise TableAdError(f"TXT entry {key!r} is longer than 255 bytes")
        out.append(len(item))
        out += item
    return bytes(out)


def split_txt(rdata: bytes) -> list[bytes]:
    """Split TXT RDATA into its strings, refusing truncation and empty strings."""
    strings: list[bytes] = []
    at = 0
    while at < len(rdata):
        size = rdata[at]
        at += 1
        if size == 0:
            raise TableAdError("TXT record contains an empty string")
        if at + size > len(rdata):
            raise TableAdError("TXT record is truncated")
        strings.append(rdata[at : at + size])
        at += size
        if len(strings) > MAX_TXT_STRINGS:
            raise TableAdError(f"TXT record has more than {MAX_TXT_STRINGS} strings")
    return strings


def parse_txt(rdata: bytes) -> dict[str, str]:
    """The known keys of a TXT record as text, refusing duplicates and malformed entries."""
    known = {"txtvers", "proto", "id", "name", "variant", "rules", "taken", "free", "fp"}
    optional = {"timer"}
    fields: dict[str, str] = {}
    seen_keys: set[bytes] = set()
    for raw in split_txt(rdata):
        key_bytes, sep, value_bytes = raw.partition(b"=")
        try:
            key = key_bytes.decode("ascii")
        except UnicodeDecodeError:
            raise TableAdError("TXT key is not ASCII") from None
        if not _KEY_RE.fullmatch(key):
            raise TableAdError(f"TXT key {key!r} is malformed")
        folded = key_bytes.lower()
        if folded in seen_keys:
            raise TableAdError(f"TXT key {key!r} appears more than once")
        seen_keys.add(folded)
        key = key.lower()
        if key not in known and key not in optional:
            continue
        if not sep:
            raise TableAdError(f"TXT key {key!r} has no value")
        try:
            fields[key] = value_bytes.decode("utf-8")
        except UnicodeDecodeError:
            raise TableAdError(f"TXT value of {key!r} is not UTF-8") from None
    missing = known - fields.keys()
    if missing:
        raise TableAdError("TXT record lacks " + ", ".join(sorted(missing)))
    return fields


def _decimal(fields: dict[str, str], key: str) -> int:
    text = fields[key]
    if not _DECIMAL_RE.fullmatch(text):
        raise TableAdError(f"TXT value of {key!r} is not a plain decimal number: {text!r}")
    return int(text)


def decode_txt(rdata: bytes, *, port: int) -> TableAd:
    """The table described by raw TXT RDATA plus the SRV port; raises :class:`TableAdError`."""
    fields = parse_txt(rdata)
    if fields["txtvers"] != str(TXT_VERSION):
        raise TableAdError(f"unsupported txtvers {fields['txtvers']!r}")
    return TableAd(
        table_id=fields["id"],
        name=fields["name"],
        variant=fields["variant"],
        rules_hash=fields["rules"],
        seats_taken=_decimal(fields, "taken"),
        seats_free=_decimal(fields, "free"),
        fingerprint=fields["fp"],
        port=port,
        protocol_version=_decimal(fields, "proto"),
        timer=decode_timer(fields["timer"]) if "timer" in fields else NO_TURN_TIMER,
    )


def encode_timer(timer: TurnTimer) -> str:
    """The TXT value of the table's clocks: ``<turn seconds>,<bot|lose>,<grace seconds>``."""
    return f"{timer.turn_seconds},{_POLICY_NAMES[timer.on_timeout]},{timer.grace_seconds}"


def decode_timer(text: str) -> TurnTimer:
    match = _TIMER_RE.fullmatch(text)
    if match is None:
        raise TableAdError(f"TXT value of 'timer' is not <seconds>,<bot|lose>,<grace>: {text!r}")
    policy = TimeoutPolicy.BOT if match[2] == "bot" else TimeoutPolicy.LOSE
    try:
        return TurnTimer(int(match[1]), policy, int(match[3]))
    except LocalProtocolError as exc:
        raise TableAdError(f"TXT value of 'timer': {exc.reason}") from None


def dialable_ipv4(addresses: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The advertised addresses worth dialling: unicast IPv4, deduplicated, order kept.

    Drops IPv6 (the node speaks IPv4 on the LAN), unspecified, multicast and reserved addresses
    (the limited broadcast address is one of those), which an honest advertiser never publishes.
    """
    usable: list[str] = []
    for text in addresses:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not isinstance(address, ipaddress.IPv4Address):
            continue
        if address.is_unspecified or address.is_multicast or address.is_reserved:
            continue
        if str(address) not in usable:
            usable.append(str(address))
    return tuple(usable)
