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

# pyvenv_pair BUILD NAME REQUIREMENTS LATEST-ARGS...: the two environments
# of a Python suite, BUILD/py/venv-NAME-pinned (REQUIREMENTS, reinstalled
# when the file changes) and BUILD/py/venv-NAME-latest (pip install -U
# LATEST-ARGS, refreshed once a day; an older installation is kept when pip
# is offline). Sets pyvenv_list to those that are ready, "pinned latest",
# or "pinned" alone when the newest releases are the pinned ones (the same
# pip freeze), saying what it could not install.
pyvenv_pair() {
  _b=$1 _n=$2 _req=$3
  shift 3
  pyvenv_list=
  _p="$_b/py/venv-$_n"
  if pyvenv "$_p-pinned" "$(cksum <"$_req")" "$_b/py/pip-$_n-pinned.log" -r "$_req"; then
    pyvenv_list=pinned
  else
    echo "$_n: pip could not install the pinned versions (see $_b/py/pip-$_n-pinned.log)"
  fi
  if pyvenv "$_p-latest" "$(date -u +%F)" "$_b/py/pip-$_n-latest.log" -U "$@"; then
    pyvenv_list="$pyvenv_list latest"
  elif [ -s "$_p-latest/.installed" ]; then
    echo "$_n: pip could not update the newest versions: using those of $(cat "$_p-latest/.installed")"
    pyvenv_list="$pyvenv_list latest"
  fi
  pyvenv_list=${pyvenv_list# }
  [ "$pyvenv_list" = "pinned latest" ] || return 0
  _f1=$("$_p-pinned/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null)
  _f2=$("$_p-latest/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null)
  if [ "$_f1" = "$_f2" ]; then
    echo "$_n: the newest releases are the pinned versions: run once"
    pyvenv_list=pinned
  fi
}
