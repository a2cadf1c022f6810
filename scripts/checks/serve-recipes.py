#!/usr/bin/env python3
"""The four signing recipes of docs/serve.md (Python, Node, PHP, Java), extracted from the page
and run against a live `blurlabel serve`, with and without enc:. Each path must be byte for byte
what `blurlabel sign` prints (an enc: path: everything but the random nonce's ciphertext, and
its length), and each picture `blurlabel render`'s PNG. enc: texts of 1.00, 12.00, 249.98 and
1249.98 € must have one length in every language. Run by scripts/checks/test-serve, which
installs what the recipes need and exports the keys.
  serve-recipes.py BIN PORT WORK PYTHON   (PYTHON: a Python with `cryptography`)"""
import json, os, re, subprocess, sys, urllib.error, urllib.request

bin_dir, port, work, python = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
tool = os.path.join(bin_dir, "blurlabel")
page = open(os.path.join(os.path.dirname(__file__), "../../docs/serve.md"), encoding="utf-8").read()


def block(language):
    found = re.findall(r"^```" + language + r"\n(.*?)^```$", page, re.S | re.M)
    assert len(found) == 1, f"docs/serve.md has {len(found)} {language} blocks"
    return found[0]


def fail(message):
    print(f"serve-recipes: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


# Options in an unsorted order, values that need escapes (parentheses, '!', '*', "'" and '~',
# a comma, '#', a space, UTF-8), a boolean, a hyphenated name, right-to-left text.
cases = [
    ("12.99 €", {"size": 32, "radius": 3}),
    ("4,20", {"secure": True, "format": "##,## (€)", "size": 28, "seed": 7}),
    ("12,99 €", {"size": 32, "features": "tnum,-liga", "color": "#c0392b", "background": "transparent"}),
    ("4,20", {"seed": 11, "secure": True, "format": "#!*'~ (#)"}),
    ("שלום 5", {"radius": 0, "letter-spacing": 2}),
]
prices = ["1.00 €", "12.00 €", "249.98 €", "1249.98 €"]
requests = [(text, options, encrypted) for text, options in cases for encrypted in (False, True)]
requests += [(price, {"size": 24}, True) for price in prices]


def arguments(options):
    out = []
    for name, value in options.items():
        out += [f"--{name}"] if value is True else [f"--{name}", str(value)]
    return out


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        fail(f"{command[0]} failed: {done.stderr.strip()[:2000]}")
    return done.stdout


signed = [run([tool, "sign", text] + arguments(options) + (["--encrypt"] if enc else [])).strip() for text, options, enc in requests]
rendered = []
for index, (text, options, _) in enumerate(requests):
    output = os.path.join(work, f"recipe-render-{index}.png")
    run([tool, "render", text, "-o", output] + arguments(options))
    rendered.append(open(output, "rb").read())

with open(os.path.join(work, "cases.json"), "w", encoding="utf-8") as f:
    json.dump([{"text": t, "options": o, "encrypted": e} for t, o, e in requests], f, ensure_ascii=False)
cases_file = os.path.join(work, "cases.json")

# Java has no JSON reader: one line per case, tab-separated, values typed back by the harness.
with open(os.path.join(work, "cases.tsv"), "w", encoding="utf-8") as f:
    for text, options, enc in requests:
        fields = [str(enc).lower(), text]
        for name, value in options.items():
            fields += [name, str(value).lower() if isinstance(value, bool) else str(value)]
        f.write("\t".join(fields) + "\n")

harness = {
    "Python": lambda: run(
        [python, "-c", block("python") + "\nimport json, sys\nfor c in json.load(open(sys.argv[1], encoding='utf-8')):\n"
         "    print(label_path(c['text'], c['options'], c['encrypted']))", cases_file]),
    "Node": lambda: run(
        ["node", "-e", block("js") + "\nconst cases = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));\n"
         "for (const c of cases) console.log(labelPath(c.text, c.options, c.encrypted));", cases_file]),
    "PHP": lambda: run(
        ["php", "-r", block("php") + "\nforeach (json_decode(file_get_contents($argv[1]), true) as $c) {\n"
         "    echo label_path($c['text'], $c['options'], $c['encrypted']), \"\\n\";\n}", cases_file]),
}


def java():
    folder = os.path.join(work, "java")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "BlurLabel.java"), "w", encoding="utf-8") as f:
        f.write(block("java"))
    with open(os.path.join(folder, "Main.java"), "w", encoding="utf-8") as f:
        f.write("""import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
public final class Main {
    public static void main(String[] args) throws Exception {
        for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
            String[] f = line.split("\\t", -1);
            Map<String, Object> options = new LinkedHashMap<>();
            for (int i = 2; i + 1 < f.length; i += 2) {
                String v = f[i + 1];
                options.put(f[i], v.equals("true") || v.equals("false") ? (Object) Boolean.valueOf(v)
                    : v.matches("[0-9]+") ? (Object) Integer.valueOf(v) : v);
            }
            System.out.println(BlurLabel.labelPath(f[1], options, f[0].equals("true")));
        }
    }
}
""")
    run(["javac", "-encoding", "UTF-8", "-d", folder, os.path.join(folder, "BlurLabel.java"), os.path.join(folder, "Main.java")])
    return run(["java", "-Dfile.encoding=UTF-8", "-Dstdout.encoding=UTF-8", "-cp", folder, "Main", os.path.join(work, "cases.tsv")])


harness["Java"] = java


def without_ciphertext(path):
    """The path with the signature and the ciphertext's characters blanked, their lengths kept."""
    segments = path.split("/")
    last = segments[-1]
    return "/".join(["*" * len(segments[1])] + segments[2:-1] + ["enc:" + "*" * (len(last) - 8) + ".png"])


for language, make in harness.items():
    paths = make().strip().split("\n")
    if len(paths) != len(requests):
        fail(f"the {language} recipe printed {len(paths)} paths for {len(requests)} cases")
    for index, ((text, options, enc), path, expected) in enumerate(zip(requests, paths, signed)):
        if not enc and path != expected:
            fail(f"the {language} recipe signs {path} for {options}, sign printed {expected}")
        if enc and ("enc:" not in path or without_ciphertext(path) != without_ciphertext(expected)):
            fail(f"the {language} recipe's enc: path {path} is not shaped as sign's {expected}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as reply:
                body = reply.read()
        except urllib.error.HTTPError as error:
            fail(f"the {language} recipe's path for {options} (enc: {enc}) got {error.code}: {error.read()[:200]!r}")
        if body != rendered[index]:
            fail(f"the {language} recipe's path for {options} (enc: {enc}) is not served as render's PNG")
    lengths = {len(p.split("/")[-1]) for p, (text, _, enc) in zip(paths, requests) if text in prices and enc}
    if len(lengths) != 1:
        fail(f"the {language} recipe's enc: texts of {prices} have lengths {sorted(lengths)}")
print(f"serve-recipes: Python, Node, PHP and Java: {len(requests)} paths each = sign's, served as render's PNG: ok", file=sys.stderr)
