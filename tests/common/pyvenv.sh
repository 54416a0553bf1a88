# pyvenv.sh, sourced by suites that test Python packages under smemu run:
# pyvenv DIR KEY LOG PIP-ARGS... makes the virtual environment DIR hold
# PIP-ARGS, installing into it again only when KEY (what it was installed
# for: a requirements file's checksum, the day) differs from the one it
# records in DIR/.installed. Returns non-zero when pip cannot install (an
# offline host); an environment installed before stays as it was. pip's
# output goes to LOG.
pyvenv() {
  _dir=$1 _key=$2 _log=$3
  shift 3
  if [ -x "$_dir/bin/python" ] && [ "$(cat "$_dir/.installed" 2>/dev/null)" = "$_key" ]; then
    return 0
  fi
  mkdir -p "$(dirname "$_dir")" || return 1
  if [ ! -x "$_dir/bin/python" ]; then
    python3 -m venv "$_dir" >"$_log" 2>&1 || return 1
  fi
  "$_dir/bin/python" -m pip install -q --disable-pip-version-check "$@" >>"$_log" 2>&1 || return 1
  echo "$_key" >"$_dir/.installed"
}
