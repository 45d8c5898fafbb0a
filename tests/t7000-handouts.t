#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The handouts build with no warning, every PDF has pages and its headings,
# and every link between them resolves (t7100: every name they use
# exists); no file of the kit uses a word the overview's glossary retires.
# tier: check
# time limit: 600 s
. "$(dirname "$0")/lib/tap.sh"

plan 8
build=$KIT_HANDOUTS_OUT

# pdf_text PDF: its text on one line (headings may wrap), with pandoc's
# typographic quotes made plain again.
pdf_text() {
	pdftotext "$1" - | tr -s ' \n' '  ' |
		sed -e "s/\xe2\x80\x99/'/g" -e 's/\xe2\x80[\x9c\x9d]/"/g'
}

# The overview's glossary ("# Words"): one row a word, its last column the
# words retired in its favour, comma-separated.
overview=$KIT_ROOT/handouts/00-overview.md
glossary() { sed -n '/^# Words$/,/^# Using it$/p' "$overview"; }
retired_words() {
	glossary | awk -F'|' 'NF >= 5 && $2 !~ /^ *(word|-+) *$/ { print $4 }' |
		tr ',' '\n' | sed -e 's/^ *//' -e 's/ *$//' | grep .
}

# retired_in FILE...: "FILE: WORD" for each retired word a file uses, as a
# whole word, case aside, wherever a line break falls in it; the glossary
# itself is left out.
retired_in() {
	retired_words | perl -e '
		my @words = map { chomp; $_ } <STDIN>;
		my @res = map { my $w = join("\\s+", map { quotemeta } split / /, $_); qr/\b$w\b/i } @words;
		for my $f (@ARGV) {
			open(my $fh, "<", $f) or die "$f: $!";
			local $/; my $text = <$fh>;
			$text =~ s/^# Words\n.*?(?=^# Using it$)//ms if $f =~ m{handouts/00-overview\.md$};
			for my $i (0 .. $#words) { print "$f: $words[$i]\n" if $text =~ $res[$i]; }
		}' "$@"
}

test_expect_success "the handouts build to HTML and PDF with no warning" '
	"$KIT/handouts" &&
	for md in "$KIT_ROOT"/handouts/*.md; do
		n=$(basename "$md" .md)
		test -s "$build/$n.html" && test -s "$build/$n.pdf" || { echo "missing $n.html or $n.pdf"; exit 1; }
	done
'

test_expect_success "every PDF has pages, its title, and its section headings" '
	for md in "$KIT_ROOT"/handouts/*.md; do
		n=$(basename "$md" .md)
		pages=$(pdfinfo "$build/$n.pdf" | sed -n "s/^Pages: *//p")
		[ "${pages:-0}" -gt 0 ] || { echo "$n.pdf has no pages"; exit 1; }
		# headings may wrap in the PDF: compare with the text on one line
		pdf_text "$build/$n.pdf" >"$SCRATCH/$n.txt"
		title=$(sed -n "s/^title: \"\(.*\)\"$/\1/p" "$md" | cut -c1-30)
		grep -qF "$title" "$SCRATCH/$n.txt" || { echo "$n.pdf lacks its title: $title"; exit 1; }
		headings=$(grep "^#\{1,2\} " "$md" | sed -e "s/^#* //" -e "s/\`//g" || true)
		[ -n "$headings" ] || { echo "$n.md has no headings"; exit 1; }
		while read -r h; do
			grep -qF "$h" "$SCRATCH/$n.txt" || { echo "$n.pdf lacks the heading: $h"; exit 1; }
		done <<<"$headings"
	done
'

test_expect_success "the overview's table of stages shows each record's title, from stages/manifest.tsv" '
	text=$(sed -e "s/<[^>]*>//g" -e "s/\xe2\x80\x99/'"'"'/g" "$build/00-overview.html" | tr -s " \n" "  ") &&
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		title=$(stage_field "$s" title | tr -d "\`") &&
		grep -qF "$title" <<<"$text" || { echo "the overview lacks stage $s: $title"; exit 1; }
	done
'

test_expect_success "every relative link in the HTML handouts resolves" '
	cd "$build" &&
	for html in *.html; do
		targets=$(grep -o "href=\"[^\"#]*" "$html" | sed "s/^href=\"//" | grep -v "^https\?:" || true)
		for target in $targets; do
			[ -e "$target" ] || { echo "$html links to $target, which does not exist"; exit 1; }
		done
	done
'

test_expect_success "every stage handout shows a figure; every figure is drawn, from a description in handouts/figures, with a caption of a sentence" '
	cd "$build" &&
	for html in *.html; do
		# pandoc embeds what it found as data: URIs; anything else is missing
		for img in $(grep -o "<img src=\"[^\"]*" "$html" | sed "s/^<img src=\"//" | grep -v "^\(https\?\|data\):" || true); do
			[ -s "$img" ] || { echo "$html shows $img, which was not drawn"; exit 1; }
		done
	done &&
	for fig in "$KIT_ROOT"/handouts/figures/*.dot "$KIT_ROOT"/handouts/figures/*.msc \
		"$KIT_ROOT"/handouts/figures/trace-*.txt.gz; do
		svg=$(basename "$fig") && svg=${svg%%.*}.svg &&
		{ [ -s "$build/$svg" ] || { echo "$svg was not drawn from $fig"; exit 1; }; } &&
		grep -q "]($svg)" "$KIT_ROOT"/handouts/*.md || { echo "no handout shows $svg, drawn from $fig"; exit 1; }
	done &&
	for md in "$KIT_ROOT"/handouts/stage-*.md; do
		grep -q "^!\[[^]]*\]([^)]*\.svg)$" "$md" || { echo "$(basename "$md") shows no figure of its stage"; exit 1; }
	done &&
	grep -ho "!\[[^]]*\]([^)]*)" "$KIT_ROOT"/handouts/*.md >"$SCRATCH/figures" &&
	[ -s "$SCRATCH/figures" ] &&
	while read -r fig; do
		caption=${fig#"!["}; caption=${caption%%"]("*}
		[ "$(wc -w <<<"$caption")" -ge 8 ] || { echo "a caption too short to say what to look at: $fig"; exit 1; }
	done <"$SCRATCH/figures"
'

# headings MD: a handout's top-level headings, one a line (code blocks,
# whose lines may start with "# ", left out).
headings() { awk '/^```/ { code = !code } !code && /^# / { sub(/^# /, ""); print }' "$1"; }

test_expect_success "every stage handout puts the model before the diff: objectives, the problem, the idea in code, a figure, then the code; what it leaves open; one table at most; lab and questions last" '
	for md in "$KIT_ROOT"/handouts/stage-*.md; do
		n=$(basename "$md")
		h=$(headings "$md" | paste -sd "|")
		case "$h" in
		"Objectives|The problem|The idea|"*"|What it leaves open|"*"Lab|Questions") ;;
		*) echo "$n: headings out of shape: $h"; exit 1 ;;
		esac
		idea=$(sed -n "/^# The idea$/,/^# /p" "$md")
		grep -q "^\`\`\`" <<<"$idea" || { echo "$n: the idea has no code block"; exit 1; }
		tables=$(grep -c "^|---" "$md")
		[ "$tables" -le 1 ] || { echo "$n: $tables tables; one is the stage'"'"'s, the rest belong in the benchmark handout"; exit 1; }
		fig=$(grep -n "^!\[" "$md" | head -1 | cut -d: -f1)
		inc=$(grep -n "^\`\`\`{.include" "$md" | head -1 | cut -d: -f1)
		[ -n "$fig" ] && [ -n "$inc" ] && [ "$fig" -lt "$inc" ] ||
			{ echo "$n: its first figure (line ${fig:-none}) does not come before the diff (line ${inc:-none})"; exit 1; }
	done
'

test_expect_success "the overview's glossary retires words, and names a word for each" '
	words=$(retired_words) &&
	[ "$(wc -l <<<"$words")" -ge 5 ] || { echo "the glossary retires too few words: $words"; exit 1; }
	grep -qx "contender" <<<"$words" && grep -qx "hand-over" <<<"$words" ||
		{ echo "the glossary does not retire contender and hand-over: $words"; exit 1; }
'

test_expect_success "no handout, lab, assignment, stage commit, script or test uses a retired word" '
	cd "$KIT_ROOT" &&
	# this file plants retired words to prove the search finds them
	files=$(git ls-files | grep -vE "\.(png|pdf)$" | grep -vx "tests/t7000-handouts.t") &&
	found=$(retired_in $files) &&
	{ [ -z "$found" ] || { echo "retired words in use (handouts/00-overview.md, # Words, gives the word to use):"; echo "$found"; exit 1; }; } &&
	printf "%s\n" "a hand-over" >"$SCRATCH/planted.md" &&
	printf "%s\n" "the two contenders" "hands" "over" >"$SCRATCH/planted2.md" &&
	[ "$(retired_in "$SCRATCH/planted.md" "$SCRATCH/planted2.md" | wc -l)" = 3 ] ||
		{ echo "retired_in misses a planted word:"; retired_in "$SCRATCH/planted.md" "$SCRATCH/planted2.md"; exit 1; }
'

test_done
