#!/usr/bin/env python3
"""The PTX instruction forms sm_90a accepts, and which of them smemu decodes.

  forms.py table [--ptxas P] [--cccl DIR] [-o forms.txt]
      expands grammar.txt (and the asm() templates of CCCL's cuda::ptx
      headers, DIR/cuda/__ptx/instructions/generated) into concrete forms,
      keeps those `ptxas -arch=sm_90a` accepts and writes them, one
      `FAMILY<TAB>INSTRUCTION` a line.
  forms.py check --smemu S --out DIR [--ptxas P] [--gaps known_gaps.txt]
                 [--readme README.md] forms.txt
      writes the forms as PTX kernels (one file per family) into DIR, runs
      `smemu lint` on them and prints the coverage; exits 1 when a form does
      not decode and known_gaps.txt names no reason for it (or, given
      --ptxas, when ptxas rejects a form of the table; given --readme,
      when its coverage table is not the one the check computes).
  forms.py readme
      rewrites README.md's coverage table from build/smemu's coverage.

grammar.txt: one instruction template a line. `<a|b|>` picks one of the
alternatives (an empty one: nothing), `<T=a|b>` also binds T to the pick,
`@NAME` (a line `@NAME = ...` defines it) stands for its text. In the
operands `%T` is a register of the type bound to T, `%u32` (any type name)
a register of that type, `%pred` a predicate, `%f32*8` eight registers,
`$T` the bound text itself.
A line `family NAME` starts a family (one kernel file each).
"""
import itertools
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# register class of each PTX type an operand may name; sub-word and packed
# types live in the register width the ISA asks for
REG_CLASS = {
    'pred': 'pred', 'b8': 'b16', 'u8': 'u16', 's8': 's16',
    'b16': 'b16', 'u16': 'u16', 's16': 's16', 'f16': 'b16', 'bf16': 'b16',
    'e4m3x2': 'b16', 'e5m2x2': 'b16', 'e2m3x2': 'b16', 'e3m2x2': 'b16',
    'e2m1x2': 'b16', 'ue8m0x2': 'b16',
    'b32': 'b32', 'u32': 'u32', 's32': 's32', 'f32': 'f32', 'f16x2': 'b32',
    'bf16x2': 'b32', 'tf32': 'b32', 'u16x2': 'b32', 's16x2': 'b32',
    'e4m3x4': 'b32', 'e5m2x4': 'b32',
    'b64': 'b64', 'u64': 'u64', 's64': 's64', 'f64': 'f64', 'b128': 'b128',
}
NREGS = 8

# what every file declares at module scope: operands name these
PRELUDE = """.version 9.0
.target sm_90a
.address_size 64
.shared .align 16 .b8 smem[4096];
.global .align 16 .b8 gmem[4096];
.const .align 16 .b8 cmem[256];
"""

# module-scope names a form may use, declared in the files that use them
MODULE_DECLS = [
    ('tref', '.global .texref tref;'),
    ('suref', '.global .surfref suref;'),
    ('fn', """.func (.param .b32 fr) fn (.param .b32 fa)
{
.reg .b32 t;
ld.param.b32 t, [fa];
st.param.b32 [fr], t;
ret;
}"""),
    ('fv', """.func fv ()
{
ret;
}"""),
]


def fail(msg):
  print('forms.py: ' + msg, file=sys.stderr)
  sys.exit(2)


# --- the grammar ---


def read_grammar(path):
  """[(family, template)] from grammar.txt, macros substituted."""
  macros, out, family = {}, [], None
  with open(path) as f:
    for no, line in enumerate(f, 1):
      line = line.split('#', 1)[0].strip()
      if not line:
        continue
      m = re.match(r'@(\w+)\s*=\s*(.*)$', line)
      if m:
        macros[m.group(1)] = m.group(2).strip()
        continue
      m = re.match(r'family\s+(\S+)$', line)
      if m:
        family = m.group(1)
        continue
      if family is None:
        fail('%s:%d: a template before the first family line' % (path, no))

      def sub(mm):
        if mm.group(1) not in macros:
          fail('%s:%d: no macro @%s' % (path, no, mm.group(1)))
        return macros[mm.group(1)]

      for _ in range(4):
        line = re.sub(r'@(\w+)', sub, line)
      out.append((family, line, '%s:%d' % (os.path.basename(path), no)))
  return out


def expand(template):
  """Every text `template` stands for, with its bindings: [(text, {T: pick})]."""
  parts = re.split(r'(<[^<>]*>)', template)
  choices = []
  for p in parts:
    if p.startswith('<') and p.endswith('>'):
      body = p[1:-1]
      m = re.match(r'(\w+)=(.*)$', body, re.S)
      name, body = (m.group(1), m.group(2)) if m else (None, body)
      choices.append([(name, alt.strip()) for alt in body.split('|')])
    else:
      choices.append([(None, p)])
  for combo in itertools.product(*choices):
    binds = {n: v for n, v in combo if n}
    yield ''.join(v for _, v in combo), binds


def type_of(text):
  """The PTX type a bound pick names: the last `.type` part of it."""
  for part in reversed(text.split('.')):
    if part in REG_CLASS:
      return part
  return None


def concretize(text, binds):
  """Operand placeholders of one expanded template replaced by registers."""
  count = {}

  def reg(cls):
    n = count.get(cls, 0)
    count[cls] = n + 1
    return '%%r_%s_%d' % (cls, n % NREGS)

  def sub(m):
    name = m.group(1)
    if name in binds:
      t = type_of(binds[name])
      if t is None:
        return binds[name]
      return reg(REG_CLASS[t])
    if name in REG_CLASS:
      return reg(REG_CLASS[name])
    return m.group(0)

  def subtext(m):
    return binds.get(m.group(1), m.group(0))

  text = re.sub(r'\$(\w+)', subtext, text)
  text = re.sub(r'(%\w+)\*(\d+)', lambda m: ', '.join([m.group(1)] * int(m.group(2))), text)
  text = re.sub(r'%(\w+)', sub, text)
  return re.sub(r'\s+', ' ', text).strip().rstrip(';') + ';'


def grammar_forms(path):
  seen, out = set(), []
  for family, tmpl, where in read_grammar(path):
    for text, binds in expand(tmpl):
      form = concretize(text, binds)
      form = re.sub(r'\.\.+', '.', form)
      if form not in seen:
        seen.add(form)
        out.append((family, form))
  return out


# --- CCCL's cuda::ptx wrappers: every asm() template is one form ---

CONSTRAINT_REG = {'r': 'b32', 'l': 'b64', 'h': 'b16', 'f': 'f32', 'd': 'f64', 'q': 'b128'}


def c_strings(s):
  """The concatenated C string literals at the start of s, and the rest."""
  out, i = [], 0
  while True:
    while i < len(s) and s[i] in ' \t\r\n':
      i += 1
    if i >= len(s) or s[i] != '"':
      break
    j = i + 1
    buf = []
    while s[j] != '"':
      if s[j] == '\\':
        buf.append({'n': '\n', 't': '\t', '"': '"', '\\': '\\'}.get(s[j + 1], s[j + 1]))
        j += 2
      else:
        buf.append(s[j])
        j += 1
    out.append(''.join(buf))
    i = j + 1
  return ''.join(out), s[i:]


def cccl_forms(root):
  gen = os.path.join(root, 'cuda', '__ptx', 'instructions', 'generated')
  if not os.path.isdir(gen):
    return []
  out, seen = [], set()
  for name in sorted(os.listdir(gen)):
    if not name.endswith('.h'):
      continue
    src = open(os.path.join(gen, name)).read()
    for m in re.finditer(r'\basm(?:\s+volatile)?\s*\(', src):
      text, rest = c_strings(src[m.end():])
      if not text:
        continue
      # the operand lists, up to the closing parenthesis of asm(
      depth, k = 1, 0
      while depth and k < len(rest):
        depth += {'(': 1, ')': -1}.get(rest[k], 0)
        k += 1
      lists = rest[:k - 1]
      cons = re.findall(r'"([=+&]*)([a-z])"\s*\(', lists)
      regs = []
      for i, (_, c) in enumerate(cons):
        if c == 'n':
          regs.append('1')
        elif c in CONSTRAINT_REG:
          regs.append('%%r_%s_%d' % (CONSTRAINT_REG[c], i % NREGS))
        else:
          regs = None
          break
      if regs is None:
        continue
      # a constant operand ("n") holds a value the wrapper chose: a form
      # per such template is enough
      def sub(mm):
        idx = int(mm.group(1))
        return regs[idx] if idx < len(regs) else mm.group(0)

      form = re.sub(r'%(\d+)', sub, text)
      form = form.replace('%%', '%')
      form = ' '.join(form.split())
      if '%' in re.sub(r'%r_\w+', '', form) and not form.startswith('{'):
        continue
      if form in seen:
        continue
      seen.add(form)
      out.append(('cccl.' + name[:-2], form))
  return out


# --- PTX files: forms into kernels, a tool's complaints back to forms ---


def form_classes(form):
  return set(re.findall(r'%r_(\w+?)_\d+', form))


def write_family(path, forms):
  """A PTX file holding `forms`, one a line; returns {line: index}."""
  lines = PRELUDE.rstrip('\n').split('\n')
  text = '\n'.join(forms)
  for name, decl in MODULE_DECLS:
    if re.search(r'\b%s\b' % name, text):
      lines += decl.split('\n')
  classes = set()
  for f in forms:
    classes |= form_classes(f)
  lines.append('.visible .entry forms(.param .u64 p)')
  lines.append('{')
  for c in sorted(classes):
    lines.append('.reg .%s %%r_%s_<%d>;' % (c, c, NREGS))
  # what a control-flow form names, declared only where one does (a
  # declaration smemu cannot read would count against every form)
  if re.search(r'\bcp_[ar]\b', text):
    lines.append('.param .b32 cp_a;')
    lines.append('.param .b32 cp_r;')
  if re.search(r'\btbl\b', text):
    lines.append('tbl: .branchtargets L_end, L_end;')
  if re.search(r'\bproto\b', text):
    lines.append('proto: .callprototype (.param .b32 _) _ (.param .b32 _);')
  where = {}
  for i, f in enumerate(forms):
    lines.append(f)
    where[len(lines)] = i
  lines.append('L_end:')
  lines.append('ret;')
  lines.append('}')
  with open(path, 'w') as out:
    out.write('\n'.join(lines) + '\n')
  return where


def run_tool(argv):
  p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
  return p.returncode, p.stdout


def ptxas_errors(ptxas, path):
  rc, out = run_tool([ptxas, '-arch=sm_90a', path, '-o', os.devnull])
  errs = {}
  for m in re.finditer(r'^ptxas \S+, line (\d+); (?:error|fatal)\s*:\s*(.*)$', out, re.M):
    errs.setdefault(int(m.group(1)), m.group(2).strip())
  return rc, errs, out


def lint_errors(smemu, path):
  rc, out = run_tool([smemu, 'lint', path])
  errs = {}
  base = re.escape(path)
  for m in re.finditer(r'^' + base + r':(\d+):\d+: (.*)$', out, re.M):
    msg = re.sub(r' \(kernel \w+\)$', '', m.group(2).strip())
    errs.setdefault(int(m.group(1)), msg)
  return rc, errs, out


def sift(forms, path, errors_of):
  """Splits forms into those the tool takes and {index: complaint}.

  The tool runs on the file again without the forms it named until it
  takes the rest (a parse error names one statement at a time); when it
  fails naming no form's line, the forms are split in halves and each
  half sifted alone, down to the single form it refuses."""
  return _sift(forms, list(range(len(forms))), path, errors_of, {})


def _sift(forms, left, path, errors_of, bad):
  while left:
    where = write_family(path, [forms[i] for i in left])
    rc, errs, out = errors_of(path)
    if rc == 0:
      break
    hit = {where[ln]: msg for ln, msg in errs.items() if ln in where}
    if not hit:
      if len(left) == 1:
        msgs = [m for ln, m in sorted(errs.items())] or [out.strip().split('\n')[-1]]
        bad[left[0]] = msgs[0]
        return [], bad
      half = len(left) // 2
      a, _ = _sift(forms, left[:half], path, errors_of, bad)
      b, _ = _sift(forms, left[half:], path, errors_of, bad)
      return a + b, bad
    for k, msg in hit.items():
      bad[left[k]] = msg
    left = [i for k, i in enumerate(left) if k not in hit]
  return left, bad


def by_family(forms):
  fams = {}
  for fam, form in forms:
    fams.setdefault(fam, []).append(form)
  return fams


def cmd_table(args):
  ptxas = args.get('--ptxas', 'ptxas')
  out_path = args.get('-o', os.path.join(HERE, 'forms.txt'))
  forms = grammar_forms(os.path.join(HERE, 'grammar.txt'))
  cccl = args.get('--cccl', '/usr/local/cuda/include/cccl')
  forms += cccl_forms(cccl)
  seen, uniq = set(), []
  for fam, form in forms:
    if form not in seen:
      seen.add(form)
      uniq.append((fam, form))
  kept, dropped = [], 0
  with tempfile.TemporaryDirectory() as tmp:
    for fam, fl in by_family(uniq).items():
      ok, bad = sift(fl, os.path.join(tmp, 'f.ptx'), lambda p: ptxas_errors(ptxas, p))
      dropped += len(bad)
      if os.environ.get('FORMS_VERBOSE'):
        for i, msg in sorted(bad.items()):
          print('rejected: %s  (%s)' % (fl[i], msg))
      kept += [(fam, fl[i]) for i in ok]
  with open(out_path, 'w') as f:
    f.write('# PTX ISA 9.0 instruction forms `ptxas -arch=sm_90a` accepts (CUDA %s),\n'
            '# expanded from grammar.txt and CCCL\'s cuda::ptx templates by\n'
            '# `forms.py table`: FAMILY<TAB>FORM. Generated, do not edit.\n' % ptxas_version(ptxas))
    for fam, form in kept:
      f.write('%s\t%s\n' % (fam, form))
  print('forms.py: %d forms expanded, %d accepted by ptxas, %d rejected, in %s' %
        (len(uniq), len(kept), dropped, out_path))


def ptxas_version(ptxas):
  rc, out = run_tool([ptxas, '--version'])
  m = re.search(r'release (\S+),', out)
  return m.group(1) if m else '?'


def read_forms(path):
  out = []
  with open(path) as f:
    for line in f:
      if line.startswith('#') or not line.strip():
        continue
      fam, _, form = line.rstrip('\n').partition('\t')
      out.append((fam, form))
  return out


def read_gaps(path):
  """[(regex, reason)]: a line is `PATTERN  reason`, PATTERN a regular
  expression searched in the form's text."""
  gaps = []
  if not path or not os.path.exists(path):
    return gaps
  with open(path) as f:
    for no, line in enumerate(f, 1):
      if line.startswith('#') or not line.strip():
        continue
      pat, _, reason = line.strip().partition(' ')
      try:
        gaps.append((re.compile(pat), reason.strip()))
      except re.error as e:
        fail('%s:%d: %s' % (path, no, e))
  return gaps


def cmd_check(args, files):
  smemu = args['--smemu']
  outdir = args['--out']
  forms = read_forms(files[0])
  gaps = read_gaps(args.get('--gaps'))
  os.makedirs(outdir, exist_ok=True)
  fail_n, total, decoded, gapped = 0, 0, 0, 0
  stale = set()
  used = set()
  per_family = []
  for fam, fl in by_family(forms).items():
    path = os.path.join(outdir, fam + '.ptx')
    if '--ptxas' in args:
      write_family(path, fl)
      rc, errs, out = ptxas_errors(args['--ptxas'], path)
      if rc != 0:
        print('FAIL: ptxas rejects %s: %s' % (path, out.strip().split('\n')[0]))
        fail_n += 1
    ok, bad = sift(fl, path, lambda p: lint_errors(smemu, p))
    total += len(fl)
    decoded += len(ok)
    per_family.append((fam, len(ok), len(fl)))
    for i, msg in sorted(bad.items()):
      reason = None
      for k, (pat, why) in enumerate(gaps):
        if pat.search(fl[i]):
          reason = why
          used.add(k)
          break
      if reason is None:
        print('FAIL: %s: %s  (%s)' % (fam, fl[i], msg))
        fail_n += 1
      else:
        gapped += 1
    write_family(path, fl)
  if '--families' in args:
    for fam, ok, n in sorted(per_family):
      print('  %-40s %5d of %5d' % (fam, ok, n))
  for k, (pat, why) in enumerate(gaps):
    if k not in used:
      stale.add(pat.pattern)
  for p in sorted(stale):
    print('note: known gap %s names no form that fails now (remove it)' % p)
  if '--readme' in args:
    text, a, b = readme_block(args['--readme'])
    want = '\n\n' + readme_table(per_family) + '\n\n'
    if a is None:
      print('FAIL: %s has no isa forms table (%s)' % (args['--readme'], README_BEGIN))
      fail_n += 1
    elif args.get('--write'):
      with open(args['--readme'], 'w') as f:
        f.write(text[:a] + want + text[b:])
    elif text[a:b] != want:
      print('FAIL: %s\'s isa forms table is not the coverage now (python3 tests/isa_forms/forms.py readme)' %
            args['--readme'])
      fail_n += 1
  pct = 100.0 * decoded / total if total else 0.0
  print('isa forms: %d of %d forms ptxas accepts for sm_90a decode in smemu (%.1f%%), '
        '%d known gaps, %d unexpected' % (decoded, total, pct, gapped, fail_n))
  return 1 if fail_n else 0


README_BEGIN = '<!-- isa forms table: python3 tests/isa_forms/forms.py readme -->'
README_END = '<!-- end of isa forms table -->'


def readme_table(per_family):
  """The README's coverage table: forms and decoded forms per family (the
  CCCL templates in one row)."""
  rows = {}
  for fam, ok, n in per_family:
    key = 'cuda::ptx templates (CCCL)' if fam.startswith('cccl.') else fam
    a, b = rows.get(key, (0, 0))
    rows[key] = (a + ok, b + n)
  out = ['| family | forms ptxas accepts (sm_90a) | decode in smemu |', '|---|---|---|']
  tot_ok = tot_n = 0
  for key in sorted(rows):
    ok, n = rows[key]
    tot_ok += ok
    tot_n += n
    out.append('| %s | %d | %d |' % (key, n, ok))
  out.append('| **all** | **%d** | **%d (%.1f%%)** |' % (tot_n, tot_ok, 100.0 * tot_ok / tot_n if tot_n else 0))
  return '\n'.join(out)


def readme_block(path):
  text = open(path).read()
  a, b = text.find(README_BEGIN), text.find(README_END)
  if a < 0 or b < a:
    return text, None, None
  return text, a + len(README_BEGIN), b


def main(argv):
  if len(argv) == 2 and argv[1] == 'readme':
    # README.md's table from the coverage of the build folder's smemu
    root = os.path.dirname(os.path.dirname(HERE))
    argv = [argv[0], 'check', '--smemu', os.path.join(root, 'build', 'smemu'), '--out',
            os.path.join(root, 'build', 'isa_forms'), '--gaps', os.path.join(HERE, 'known_gaps.txt'),
            '--readme', os.path.join(root, 'README.md'), '--write', '1', os.path.join(HERE, 'forms.txt')]
  if len(argv) < 2 or argv[1] not in ('table', 'check'):
    print(__doc__)
    return 2
  args, files = {}, []
  it = iter(argv[2:])
  for a in it:
    if a in ('--families',):
      args[a] = True
    elif a.startswith('-'):
      args[a] = next(it, None)
    else:
      files.append(a)
  if argv[1] == 'table':
    cmd_table(args)
    return 0
  if not files or '--smemu' not in args or '--out' not in args:
    print(__doc__)
    return 2
  return cmd_check(args, files)


if __name__ == '__main__':
  sys.exit(main(sys.argv))
