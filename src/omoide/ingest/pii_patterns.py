"""The regexes and name lists the PII detectors of `omoide.ingest.pii` propose candidates with.

Every pattern here only proposes; `pii` confirms each candidate with the library or check
that knows the format. Detectors start with a literal or a character class and test what
precedes it with a short lookbehind, so `re` skips ahead to candidates instead of trying
every position, and none of them backtracks more than linearly on hostile input.
"""

from __future__ import annotations

import re

# National numbers written without a country code are accepted when valid in one of these;
# bare digit runs only when valid in the first (the default region).
PHONE_REGIONS = (
    "US", "GB", "DE", "FR", "IT", "ES", "NL", "BE", "CH", "AT",
    "SE", "NO", "DK", "FI", "PL", "PT", "BR", "AU", "IN", "JP", "CN",
)  # fmt: skip

# Prefixes of well-known token formats (the first characters of `TOKEN` below), in the
# syntax RE2 and `re` share.
_TOKEN_SCREEN = (
    r"eyJ|gh[pousr]_|github_pat_|xox[abposre]-|xapp-|A(?:KIA|SIA|BIA|CCA|3T|Iza)"
    r"|[spr]k_(?:live|test|prod)_|sk-|glpat-|npm_|hf_|(?i:bearer|authorization)"
)

# Screens, one per detector group, in the regex syntax RE2 (pyarrow) and `re` share. Each is
# a superset of what its detectors find, so sanitize can screen whole columns in C++ and
# run only the detectors whose screen matched.
SECRETS, EMAILS, NUMBERS, IPS = "secrets", "emails", "numbers", "ips"
SCREENS = {
    SECRETS: r"(?i:token|secret|pass|pwd|sess|sid|code|key|auth|sig|cfid|credential"
    r"|jwt|bearer|verifier)[\w.-]*="
    r"|/\(|@|" + _TOKEN_SCREEN,
    EMAILS: r"@",
    NUMBERS: r"\d(?:[ ().+-]{0,3}\d){6}",  # seven digits: the least a phone or card holds
    IPS: r"\d\.\d{1,3}\.\d{1,3}\.\d|::|[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){7}",
}
PREFILTER = "|".join(f"(?:{screen})" for screen in SCREENS.values())
NUMBERS_SCREEN = re.compile(SCREENS[NUMBERS], re.ASCII)  # RE2 classes are ASCII too

# An e-mail is found from its "@domain.tld" or "@[IP literal]"; the local part is read
# backwards from the "@" (a quoted local part back to its opening quote).
EMAIL_DOMAIN = re.compile(
    r"@(?:(?:[^\W_][\w-]*\.)+(?P<tld>xn--[\w-]+|[^\W\d_]{2,63})(?![\w-]|\.[^\W_])"
    r"|\[(?P<literal>(?:IPv6:)?[0-9A-Fa-f:.]{2,45})\])"
)
# Endings of file names that are no top-level domain, so `icon@2x.png` is an image.
FILE_SUFFIXES = frozenset(
    "png jpg jpeg gif svg webp bmp tif tiff ico heic avif psd pdf js mjs css scss json yaml yml"
    " toml txt csv tsv html htm xml log".split()
)
QUOTED_LOCAL_MAX = 64  # RFC 5321: a local part holds at most 64 octets

IPV4 = re.compile(r"\d(?<![\w.]\d)\d{0,2}(?:\.\d{1,3}){3}(?!\w|\.\d)", re.ASCII)
IPV6 = re.compile(r"[0-9A-Fa-f:](?<![\w:.].)[0-9A-Fa-f:.]*+(?!\w)", re.ASCII)
CARD_CANDIDATE = re.compile(
    r"\d(?<![\w.,+-]\d)(?:"
    r"\d{3}(?P<s1>[ -])\d{6}(?P=s1)\d{4,5}"  # Amex / Diners 4-6-5, 4-6-4
    r"|\d{3}(?P<s2>[ -])\d{4}(?:(?P=s2)\d{4}){1,2}(?:(?P=s2)\d{1,4})?"  # 4-4-4-4(-n)
    r"|\d{11,18})(?!\w|[.,]\d)",
    re.ASCII,
)
PHONE_CANDIDATE = re.compile(
    r"[+(\d](?<![\w+./@-].)(?<!\d,.)"  # not inside a word, path, address or 1,234,567
    r"(?:(?<=\+)(?:\(\d{1,5}\)|\d+)|(?<=\()\d{1,5}\)|(?<=\d)\d*)"
    r"(?:[ .-]?\(\d{1,5}\)|(?<=\))[ ]?\d+|[ .-]\d+)*+"
    r"(?:[ ]?(?:x|ext\.?|\#)[ ]?\d{1,6})?"
    r"(?![\w@]|[:/,]\d)",
    re.ASCII,
)
EXTENSION = re.compile(r"[ ]?(?:x|ext\.?|#)[ ]?\d{1,6}$")

# Query, fragment, form or path (`;jsessionid=`) parameters whose value is a credential:
# exact names, and names ending in a credential word (public_key, CFTOKEN, X-Amz-Signature,
# oauth_verifier).
SECRET_NAME = re.compile(
    r"sid|session|code|key|pwd|pass|auth|sig|cfid|jwt|bearer|authorization|aspsessionid\w*"
    r"|[\w.-]*?(?:token|secret|passw(?:or)?d|sessid|session_?id|signature|credential|verifier"
    r"|[_-]key|apikey|accesskey|accesskeyid|secretkey|privatekey)",
    re.IGNORECASE,
)
# A parameter is found from its "=value"; the name is read backwards from the "=".
VALUE = re.compile(r"=(?P<value>[^\s&#;?\"'<>]+)")
# URL userinfo after a scheme, up to the authority's last "@" (browsers accept `p@ss`).
USERINFO = re.compile(r"://(?<=[\w+.-]://)(?P<ui>[^\s/?#\[\]<>\"']+)@")
# ASP.NET cookieless session ids: 24 chars of [a-z0-5] in a path segment, `/(id)/` or `/(S(id))/`.
ASPNET = re.compile(r"(?<=/\()(?:[A-Za-z]\()?(?P<id>[a-z0-5]{24})(?=\)\)?/)")
TRAILING_PUNCT = ".,:;!)]}'\""

# Credentials with a recognisable shape, anywhere in text (formats as documented by each
# vendor and used by secret scanners such as gitleaks). `scheme` is kept on redaction.
TOKEN = re.compile(
    r"(?<![\w-])(?:"
    r"eyJ[\w-]{8,}\.ey[\w-]{8,}\.[\w-]*"  # base64url '{"' header . payload . sig
    r"|gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_\w{22,244}"  # GitHub
    r"|xox[abposre]-[A-Za-z0-9-]{10,250}|xapp-\d-[A-Za-z0-9-]{10,250}"  # Slack
    r"|(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16}"  # AWS access key id
    r"|AIza[\w-]{35}"  # Google API key
    r"|[spr]k_(?:live|test|prod)_[A-Za-z0-9]{10,247}"  # Stripe
    r"|glpat-[\w-]{20,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z]{34}"  # GitLab, npm, Hugging Face
    r"|(?P<sk>sk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?[\w-]{20,})"  # OpenAI, Anthropic
    r"|(?P<scheme>(?i:(?:authorization:[ \t]*)?bearer|authorization:[ \t]*basic)[ \t]+)"
    r"(?P<cred>[\w.~+/-]{6,}=*)"  # HTTP Authorization credentials
    r")(?![\w-])",
)
