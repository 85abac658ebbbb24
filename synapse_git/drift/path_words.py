"""The words that tell a path from other text in a memory (drift/paths.py; docs/drift.md,
paths): the extensions a bare file name may carry, the names that are files without
one, the top folders a short relative path is taken from, and the products and
placeholders that look like files and are not.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Extensions a bare file name may carry (`settings.py`); a list rather than "any
# word.word", which would take domains, methods (`os.path`) and `e.g` for files.
EXTENSIONS = _words(
    """
    py pyi pyx pxd ipynb js mjs cjs jsx ts mts cts tsx vue svelte json jsonc json5 yml yaml
    toml ini cfg conf env lock md markdown rst txt adoc org sh bash zsh fish ps1 bat cmd go
    mod sum rs c h cc cpp cxx hpp hh hxx m mm java kt kts scala clj cljs groovy gradle swift
    rb erb rake gemspec php pl pm lua r jl sql html htm css scss sass less xml xsd xsl csv tsv
    parquet properties mk cmake proto graphql gql cs csproj sln fs fsx ex exs erl hrl hs ml mli
    dart tf tfvars hcl nix j2 jinja jinja2 tmpl tpl service socket timer plist pem crt key pub
    gz tgz tar zip whl png jpg jpeg gif svg ico webp pdf db sqlite sqlite3 wasm so dylib dll
    log pid patch diff bak dockerfile containerfile editorconfig gitignore gitattributes
    example sample
    in
    """
)

# Written alone with a dot these name a kind of file (`.html`, `.pyc`), except the
# dotfiles that are files of their own (`.env`, `.gitignore`).
EXTENSION_ALONE = EXTENSIONS | _words(
    "pyc pyo pyd o a obj class jar war exe bin dat tmp swp orig rej map min egg nupkg deb rpm"
)
DOTFILES = _words("env gitignore gitattributes editorconfig dockerfile")

# Extensionless names that are files wherever they appear.
KNOWN_FILES = _words(
    """
    Makefile GNUmakefile Dockerfile Containerfile Jenkinsfile Procfile Gemfile Rakefile
    Vagrantfile Justfile Brewfile Pipfile Podfile Tiltfile Earthfile Taskfile BUILD WORKSPACE
    LICENSE LICENCE CODEOWNERS
    """
)

# Top folders a two-part relative path without an extension is taken from
# (`src/app`); prose pairs such as `read/write` or `client/server` are not paths.
SOURCE_ROOTS = _words(
    """
    src lib libs app apps pkg pkgs packages cmd internal docs doc test tests spec specs
    scripts script bin tools config configs conf etc deploy deployment infra ci hooks
    examples example include assets static public templates migrations vendor services
    modules components fixtures benchmarks bench crates plugins charts k8s helm terraform
    """
)

# `Node.js` and friends are products, not files.
PRODUCTS = _words(
    """
    node vue next nuxt react express d3 three chart ember backbone angular deno nest solid
    alpine p5 moment day anime socket knockout meteor preact svelte gatsby
    """
)

# The top levels of MIME types (`application/json` is a type, not a path).
MIME_TOPS = _words("application text image audio video multipart message font model chemical")

# Names written to stand for any file in an example (`foo/bar.py`); a path made of
# them names nothing in particular unless the checkout or its history knows it.
PLACEHOLDER_NAMES = _words("foo bar baz qux quux xxx yyy zzz example your_project yourproject")
