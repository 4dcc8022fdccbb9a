"""The browser contract (calcsite.contract): declared once, held to by each script and template.

The scripts are read as text: a name a script uses that the contract does not
declare fails here, and so does a name the contract declares that no script or
template uses. The two module scripts take every shared name from the contract
module (no ``data-*``, ``dataset`` or ``calc:`` name of their own), the classic
ones write the few they use, each declared; the templates write none of the
declared names themselves. The messages between the page and its worker are
checked key by key against :data:`calcsite.contract.MESSAGES`. In the real
build: the module the scripts import is the declarations', and their import
names it by its bytes.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from calcsite.contract import (
    ACTIONS,
    ATTRIBUTES,
    CONTRACT,
    ENGINE_FILES,
    IDS,
    IMPORTERS,
    MARKS,
    MESSAGES,
    METAS,
    MODULE,
    QUERY,
    STATES,
    TEXTS,
    VERSION_SLOT,
    Attributes,
    ContractError,
    Head,
    Message,
    Metas,
    States,
    case_inputs,
    chart_id,
    exports,
    form_id,
    module_text,
    names,
    pin,
    write_module,
)
from calcsite.versions import version

from calculator import CALCULATORS, get

from .conftest import ROOT

SCRIPTS = ROOT / "overrides" / "assets" / "javascripts"
TEMPLATES = ROOT / "overrides"
PAGE, WORKER = (SCRIPTS / path.rsplit("/", 1)[-1] for path in IMPORTERS)
CLASSIC = (SCRIPTS / "embed.js", SCRIPTS / "theme-start.js")
"""The scripts that cannot import the module: they write the names they use."""
HEAD = TEMPLATES / "partials" / "engine-head.html"
"""Its inline script, which a full page runs in its head, is a classic script too."""

EXPORT = re.compile(r"^export const (?P<name>[A-Z_]+)=Object\.freeze\((?P<json>.*)\);$")
IMPORT = re.compile(r'^import \{(?P<names>[^}]*)\} from "(?P<specifier>[^"]+)";$', re.MULTILINE)
COMMENT = re.compile(r"(^|\s)//(\s.*)?$", re.MULTILINE)
"""A line comment (``//`` at a line's start or after a space: ``https://`` is no comment)."""
DATA = re.compile(r"\bdata-(?!md-)[a-z0-9-]*[a-z0-9]")
"""A ``data-*`` attribute in a script or a template; Material's (``data-md-*``) are its own."""
DATASET = re.compile(r"\bdataset\??\.(?P<key>[A-Za-z0-9]+)")
DESTRUCTURED = re.compile(r"\{(?P<keys>[A-Za-z0-9,\s]+)\}\s*=\s*[\w.]*\.dataset\b")
"""``const { bundle } = script.dataset``: each key is an attribute too."""
META_NAME = re.compile(r"""meta\[name=["'](?P<name>[^"']+)["']\]""")
PROPERTY = re.compile(r"\b(?P<export>[A-Z][A-Z_]*)\.(?P<key>[a-zA-Z][A-Za-z0-9]*)")


def code(path: Path) -> str:
    """A script's code, its line comments left out."""
    return COMMENT.sub(r"\1", path.read_text(encoding="utf-8"))


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def kebab(key: str) -> str:
    """A ``dataset`` key as its attribute: ``defaultMode`` is ``data-default-mode``."""
    return "data-" + re.sub(r"[A-Z]", lambda match: "-" + match[0].lower(), key)


def imported(path: Path) -> tuple[str, list[str]]:
    """The specifier and the names of a script's one import."""
    (found,) = IMPORT.findall(path.read_text(encoding="utf-8"))
    names_, specifier = found
    return specifier, [name.strip() for name in names_.split(",") if name.strip()]


def literal_names(path: Path) -> set[str]:
    """The attribute and meta names a script writes itself."""
    text = code(path)
    found = set(DATA.findall(text))
    found |= {kebab(match["key"]) for match in DATASET.finditer(text)}
    for match in DESTRUCTURED.finditer(text):
        found |= {kebab(key.strip()) for key in match["keys"].split(",") if key.strip()}
    found = {name for name in found if not name.startswith("data-md-")}
    # A name from an expression (``${META.inputs}``, ``{{ contract.metas.inputs }}``) is none.
    found |= {m["name"] for m in META_NAME.finditer(text) if "{" not in m["name"]}
    return found


def declared() -> set[str]:
    """Every attribute and meta name of the contract."""
    metas = {METAS.inputs, METAS.worker, *(METAS.file(name) for name in ENGINE_FILES)}
    return {*names(ATTRIBUTES).values(), *metas}


def inline_head_script() -> Path:
    """The partial's inline script, written out as a script (its Jinja expressions left in)."""
    text = HEAD.read_text(encoding="utf-8")
    (script,) = re.findall(r"<script>(.*?)</script>", text, re.DOTALL)
    return Path(script)


# ------------------------------------------------------------------ the declarations


def test_the_module_exports_the_declarations_as_frozen_objects() -> None:
    lines = module_text().splitlines()
    assert lines[0].startswith("// ")
    assert "contract.py" in lines[0]
    found = {}
    for line in lines[1:]:
        match = EXPORT.match(line)
        assert match, line
        found[match["name"]] = json.loads(match["json"])
    assert found == exports()
    assert found["ATTR"] == {camel(key): value for key, value in names(ATTRIBUTES).items()}
    assert found["ENGINE_FILES"] == {name: f"calc:{name}" for name in ENGINE_FILES}
    assert found["MESSAGE"] == {"progress": "progress", "ready": "ready", "failed": "failed"}


@pytest.mark.parametrize(
    ("slug", "mode", "form", "chart"),
    [
        (
            "pipeline-bubble",
            "bubble",
            "calc-pipeline-bubble-bubble",
            "calc-pipeline-bubble-bubble-chart",
        ),
        (
            "data-parallel-scaling",
            "measure",
            "calc-data-parallel-scaling-measure",
            "calc-data-parallel-scaling-measure-chart",
        ),
    ],
)
def test_a_forms_id_and_its_charts(slug: str, mode: str, form: str, chart: str) -> None:
    assert form_id(slug, mode) == CONTRACT.form_id(slug, mode) == form
    assert chart_id(slug, mode) == chart


def test_the_inputs_that_make_a_case_are_every_modes_sorted_once() -> None:
    calculator = get("effective-batch-size")
    every = [spec.name for mode in calculator.modes for spec in mode.inputs]
    assert case_inputs(calculator.modes) == tuple(sorted(set(every)))
    assert len(case_inputs(calculator.modes)) < len(every), "modes share inputs: named once"
    for slug in CALCULATORS:
        assert "mode" not in case_inputs(get(slug).modes), "the mode is a query key of its own"
    assert QUERY.mode == "mode"


def test_a_name_spelled_otherwise_than_its_field_fails_as_it_is_declared() -> None:
    spelled = names(ATTRIBUTES) | {"default_mode": "data-defaultmode"}
    with pytest.raises(ValueError, match="default_mode"):
        Attributes(**spelled)
    with pytest.raises(ValueError, match="ready"):
        States(**(names(STATES) | {"ready": "done"}))
    with pytest.raises(ValueError, match="inputs"):
        Metas(prefix="calc:", inputs="calc:names", worker="calc:worker")
    with pytest.raises(KeyError, match="no engine file"):
        METAS.file("wasm")
    with pytest.raises(ValueError, match="keys"):
        Message(name="x", sender="page", keys=("id", "id"), doc="")


def test_a_head_names_its_metas_in_the_contracts_order() -> None:
    head = Head(
        inputs=("a", "b"),
        worker="w.mjs",
        files=tuple((name, f"{name}.url") for name in ENGINE_FILES),
        script="s.mjs",
        prefetch=("w.mjs",),
    )
    assert head.metas == (
        ("calc:inputs", "a b"),
        ("calc:worker", "w.mjs"),
        *((f"calc:{name}", f"{name}.url") for name in ENGINE_FILES),
    )
    with pytest.raises(ValueError, match="in that order"):
        Head(inputs=(), worker="", files=(("wheel", ""),), script="", prefetch=())


# ------------------------------------------------------------ the scripts and templates


@pytest.mark.parametrize("script", [PAGE, WORKER], ids=lambda path: path.name)
def test_a_module_script_imports_the_contract_by_its_version_slot_and_nothing_else(
    script: Path,
) -> None:
    specifier, imports = imported(script)
    assert specifier == f"./{MODULE.rsplit('/', 1)[-1]}{VERSION_SLOT}"
    assert set(imports) <= set(exports()), "imports only what the module exports"
    assert imports == sorted(imports)


@pytest.mark.parametrize("script", [PAGE, WORKER], ids=lambda path: path.name)
def test_a_module_script_writes_no_shared_name_of_its_own(script: Path) -> None:
    """Every data-* attribute, dataset key and meta name comes from the module."""
    assert literal_names(script) == set()
    text = code(script)
    assert "dataset" not in text
    for value in declared() | set(names(MARKS).values()):
        assert f'"{value}"' not in text, value
        assert f"'{value}'" not in text, value


@pytest.mark.parametrize("script", [PAGE, WORKER], ids=lambda path: path.name)
def test_every_name_a_module_script_reads_is_exported(script: Path) -> None:
    _, imports = imported(script)
    exported = exports()
    used = [m for m in PROPERTY.finditer(code(script)) if m["export"] in imports]
    assert used, "it reads the contract"
    for match in used:
        assert match["key"] in exported[match["export"]], match[0]


@pytest.mark.parametrize("script", [*CLASSIC, HEAD], ids=lambda path: path.name)
def test_every_name_a_classic_script_writes_is_declared(script: Path) -> None:
    found = literal_names(script)
    assert found <= declared(), found - declared()
    if script != HEAD:
        assert found, "it reads some (checked here)"


def test_the_head_partials_inline_script_takes_its_names_from_the_contract() -> None:
    script = HEAD.read_text(encoding="utf-8").split("<script>", 1)[1]
    assert "{{ contract.metas.inputs }}" in script
    assert "{{ contract.ids.prefetch }}" in script
    assert literal_names(HEAD) == set()


def templates() -> list[Path]:
    return sorted(
        [
            TEMPLATES / "main.html",
            *TEMPLATES.glob("partials/*.html"),
            *TEMPLATES.glob("fragments/calculator/*.html"),
        ]
    )


THEMES_OWN = {"main.html": {ATTRIBUTES.bundle}}
"""What a template writes itself: main.html starts the theme on every page, whether or not
the calculators' hook put the contract in the settings (main.html says so)."""


@pytest.mark.parametrize("template", templates(), ids=lambda path: path.name)
def test_a_template_writes_no_declared_name_itself(template: Path) -> None:
    """It reads each from the contract in its context: ``{{ a.calc }}``, never ``data-calc``."""
    text = re.sub(r"\{#.*?#\}", "", template.read_text(encoding="utf-8"), flags=re.DOTALL)
    written = set(DATA.findall(text)) | {m["name"] for m in META_NAME.finditer(text)}
    assert written & declared() == THEMES_OWN.get(template.name, set())
    assert IDS.prefetch not in text


def test_the_stylesheet_reads_only_declared_attributes_and_states() -> None:
    css = (TEMPLATES / "assets" / "stylesheets" / "calculator.css").read_text(encoding="utf-8")
    assert set(DATA.findall(css)) <= declared()
    states = set(re.findall(rf'\[{ATTRIBUTES.state}="([^"]+)"\]', css))
    assert states, "it styles a form's state"
    assert states <= set(names(STATES).values())


def test_main_html_names_the_bundle_for_theme_start_by_the_declared_attribute() -> None:
    text = (TEMPLATES / "main.html").read_text(encoding="utf-8")
    start = "('assets/javascripts/theme-start.js' | url)"
    assert f"""{start} ~ '" {ATTRIBUTES.bundle}="'""" in text
    assert ATTRIBUTES.bundle in literal_names(SCRIPTS / "theme-start.js")


TEMPLATE_GROUPS = {
    "attributes": "ATTR",
    "a": "ATTR",
    "states": "STATE",
    "actions": "ACTION",
    "ids": "ID",
    "metas": "META",
    "query": "QUERY",
}
"""How the templates name each part of the contract (``a`` is ``contract.attributes``)."""


def template_names(text: str) -> dict[str, set[str]]:
    """The keys of each export that a template's text names (``contract.ids.prefetch``)."""
    used: dict[str, set[str]] = {name: set() for name in exports()}
    for chain in re.findall(r"\b[a-z_]+(?:\.[a-z_]+)+", text):
        parts = chain.split(".")
        for group, field in itertools.pairwise(parts):
            if group in TEMPLATE_GROUPS:
                used[TEMPLATE_GROUPS[group]].add(camel(field))
    return used


def script_names() -> dict[str, set[str]]:
    """The keys of each export that a script reads: imported, written, or in the head partial."""
    exported = exports()
    used: dict[str, set[str]] = {name: set() for name in exported}
    for script in (PAGE, WORKER):
        text = code(script)
        for match in PROPERTY.finditer(text):
            if match["export"] in used:
                used[match["export"]].add(match["key"])
        for name in used:
            if re.search(rf"Object\.(?:keys|entries|values)\({name}\)", text):
                used[name] |= set(exported[name])
    attributes = {value: camel(key) for key, value in names(ATTRIBUTES).items()}
    for script in CLASSIC:
        found = literal_names(script)
        used["ATTR"] |= {attributes[name] for name in found if name in attributes}
        used["META"] |= {key for key, value in exported["META"].items() if value in found}
    inline = HEAD.read_text(encoding="utf-8").split("<script>", 1)[1]
    for name, keys in template_names(inline).items():
        used[name] |= keys
    return used


def test_every_name_a_script_uses_is_declared_and_every_declared_name_is_used() -> None:
    """Each export's every key is read by a script; a form's first state is the template's."""
    used = script_names()
    for template in templates():
        used["STATE"] |= template_names(template.read_text(encoding="utf-8"))["STATE"]
    exported = exports()
    for name, keys in exported.items():
        assert set(keys) == used[name], (name, set(keys) ^ used[name])


def test_the_exports_cover_every_declaration() -> None:
    exported = exports()
    for declaration, export in (
        (ATTRIBUTES, "ATTR"),
        (STATES, "STATE"),
        (ACTIONS, "ACTION"),
        (QUERY, "QUERY"),
        (MARKS, "MARK"),
        (IDS, "ID"),
    ):
        assert list(exported[export]) == [camel(key) for key in names(declaration)]


# ----------------------------------------------------------------------- the messages


def object_literals(text: str, opening: str) -> list[set[str]]:
    """The keys of each object literal that follows ``opening`` (which ends with ``{``)."""
    found = []
    start = 0
    while (at := text.find(opening, start)) >= 0:
        position = at + len(opening)
        depth, part, parts = 0, "", []
        quote = ""
        for char in text[position:]:
            position += 1
            if quote:
                part += char
                quote = "" if char == quote else quote
                continue
            if char in "\"'`":
                quote = char
            elif char in "([{":
                depth += 1
            elif char in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif char == "," and depth == 0:
                parts.append(part)
                part = ""
                continue
            part += char
        parts.append(part)
        keys = set()
        for item in (part.strip() for part in parts):
            if not item or item.startswith("..."):
                continue
            keys.add(re.split(r"\s*:", item, maxsplit=1)[0].strip())
        found.append(keys)
        start = position
    return found


def message(name: str) -> Message:
    (found,) = (m for m in MESSAGES if m.name == name)
    return found


def test_the_worker_posts_only_declared_messages_and_each_of_them() -> None:
    posted = object_literals(code(WORKER), "post({")
    worker = [set(m.keys) for m in MESSAGES if m.sender == "worker"]
    assert posted
    for keys in posted:
        assert keys in worker, keys
    for keys in worker:
        assert keys in posted, keys


def test_the_page_sends_the_declared_request_and_the_worker_reads_it_whole() -> None:
    request = set(message("request").keys)
    assert object_literals(code(PAGE), "this.worker.postMessage({") == [request]
    assert object_literals(code(WORKER), "function compute({") == [request]


def test_the_page_reads_only_what_the_worker_sends() -> None:
    sent = {key for m in MESSAGES if m.sender == "worker" for key in m.keys}
    read = set(re.findall(r"\bmessage\.([a-z]+)", code(PAGE)))
    assert read
    assert read <= sent, read - sent
    assert {"type", "step", "steps", "id", "reply", "texts", "error"} <= read


def test_the_boot_settings_are_the_engine_files_and_the_locales() -> None:
    boot = set(message("boot").keys)
    assert boot == {*ENGINE_FILES, "locales"}
    assert "JSON.stringify({ ...files, locales })" in code(PAGE)
    (read,) = object_literals(code(WORKER), "async function runtime({")
    read |= set(re.findall(r"\bsettings\.([a-z]+)", code(WORKER)))
    assert read <= boot, read - boot
    assert "Object.keys(ENGINE_FILES)" in code(WORKER)


def test_the_texts_of_a_reply_are_declared() -> None:
    read = set(re.findall(r"\bshown\.([a-z]+)", code(PAGE)))
    assert read == set(TEXTS)
    written = object_literals(code(WORKER), "return {")
    assert {key for keys in written for key in keys} >= set(TEXTS)


# ------------------------------------------------------------------ pinning the module


MINIFIED = (
    'import{ATTR as t}from"./contract.mjs?v=000000000000";t.calc;\n//# sourceMappingURL=a.mjs.map\n'
)
"""An importer as the build minified it."""


def test_the_module_is_named_in_its_importers_by_its_version(tmp_path: Path) -> None:
    for importer in IMPORTERS:
        (tmp_path / importer).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / importer).write_text(MINIFIED, encoding="utf-8")
    current = write_module(tmp_path)
    data = (tmp_path / MODULE).read_bytes()
    assert data == module_text().encode()
    assert current == version(data)
    for importer in IMPORTERS:
        text = (tmp_path / importer).read_text(encoding="utf-8")
        assert text == MINIFIED.replace("000000000000", current)
        assert len(text) == len(MINIFIED), "the source map still fits"
    # Again (mkdocs serve), and over another version: the version now.
    pin(tmp_path / IMPORTERS[0], "0123456789ab")
    assert write_module(tmp_path) == current
    assert (tmp_path / IMPORTERS[0]).read_text(encoding="utf-8") == MINIFIED.replace(
        "000000000000", current
    )


@pytest.mark.parametrize(
    "text",
    [
        'import{A}from"./contract.mjs";',
        'import{A}from"./contract.mjs?v=000000000000";import"./contract.mjs?v=000000000000";',
        "nothing imported",
    ],
)
def test_an_importer_that_does_not_import_by_the_slot_fails_the_build(
    tmp_path: Path, text: str
) -> None:
    script = tmp_path / "page.mjs"
    script.write_text(text, encoding="utf-8")
    with pytest.raises(ContractError, match=r"contract\.mjs"):
        pin(script, "0123456789ab")
    with pytest.raises(ContractError, match="not in the site"):
        pin(tmp_path / "missing.mjs", "0123456789ab")


# -------------------------------------------------------------------- the real build


def test_the_built_module_is_the_declarations(site: Path) -> None:
    assert (site / MODULE).read_text(encoding="utf-8") == module_text()


def test_each_built_importer_names_the_module_by_its_bytes(site: Path) -> None:
    current = version((site / MODULE).read_bytes())
    for importer in IMPORTERS:
        text = (site / importer).read_text(encoding="utf-8")
        assert f'"./contract.mjs?v={current}"' in text, importer
        assert VERSION_SLOT not in text, importer
