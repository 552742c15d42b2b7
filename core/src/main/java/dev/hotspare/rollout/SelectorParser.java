package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutSpec.LabelRequirement;
import dev.hotspare.validation.Problem;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The string form of a label selector, parsed as Kubernetes parses it ({@code k8s.io/apimachinery/pkg/labels},
 * {@code Lexer} and {@code Parser}): the same tokens, the same grammar, the same messages. A tokenizer turns the
 * text into tokens that remember where they start; a recursive-descent parser reads requirements separated by
 * commas. Where Kubernetes only says what it found, the error here also names the position (0-based character
 * offset) of the token it found.
 *
 * <pre>
 * selector    := "" | requirement ("," requirement)*
 * requirement := ["!"] KEY | KEY set-op "(" values ")" | KEY exact-op [VALUE]
 * set-op      := "in" | "notin"
 * exact-op    := "=" | "==" | "!=" | ">" | "&lt;"
 * values      := a comma-separated list; empty entries are the empty value
 * </pre>
 */
final class SelectorParser {

    /** Token kinds of the Kubernetes lexer. */
    private enum Kind { ERROR, END, CLOSE_PAREN, COMMA, NOT, DOUBLE_EQUALS, EQUALS, GREATER, IDENTIFIER, IN, LESS, NOT_EQUALS, NOT_IN, OPEN_PAREN }

    private static final Map<String, Kind> TOKENS = Map.ofEntries(
            Map.entry(")", Kind.CLOSE_PAREN), Map.entry(",", Kind.COMMA), Map.entry("!", Kind.NOT),
            Map.entry("==", Kind.DOUBLE_EQUALS), Map.entry("=", Kind.EQUALS), Map.entry(">", Kind.GREATER),
            Map.entry("in", Kind.IN), Map.entry("<", Kind.LESS), Map.entry("!=", Kind.NOT_EQUALS),
            Map.entry("notin", Kind.NOT_IN), Map.entry("(", Kind.OPEN_PAREN));

    /** What Kubernetes lists when it expects an operator. */
    private static final String BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

    /** Parsing context: in values, the keywords {@code in} and {@code notin} are plain identifiers. */
    private enum Context { KEY_AND_OPERATOR, VALUES }

    private record Token(Kind kind, String literal, int position) {
    }

    /** A parse failure: Kubernetes' message and where it happened. */
    static final class SyntaxError extends Exception {
        private final int position;

        SyntaxError(int position, String message) {
            super(message, null, false, false);
            this.position = position;
        }

        int position() {
            return position;
        }
    }

    private final List<Token> tokens;
    private int next;
    /** Whether the requirement being read started with '!'. */
    private boolean negated;

    private SelectorParser(String text) {
        this.tokens = tokenize(text);
    }

    /**
     * Parses {@code text} into requirements in the order written.
     *
     * @throws SyntaxError naming the position and what was wrong
     */
    static List<LabelRequirement> parse(String text) throws SyntaxError {
        return new SelectorParser(text).selector();
    }

    // ---- tokenizer (Kubernetes' Lexer) -------------------------------------------------------------------

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean isSpecial(char c) {
        return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
    }

    private static List<Token> tokenize(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (true) {
            while (i < s.length() && isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i >= s.length()) {
                out.add(new Token(Kind.END, "", s.length()));
                return out;
            }
            int start = i;
            if (isSpecial(s.charAt(i))) {
                // Longest run of special characters that is still a token: "!=" and "==" are one token, "=(" two.
                Kind kind = null;
                int end = i;
                StringBuilder buffer = new StringBuilder();
                while (i < s.length() && isSpecial(s.charAt(i))) {
                    buffer.append(s.charAt(i));
                    Kind k = TOKENS.get(buffer.toString());
                    if (k != null) {
                        kind = k;
                        end = i + 1;
                    } else if (kind != null) {
                        break;
                    }
                    i++;
                }
                if (kind == null) {
                    out.add(new Token(Kind.ERROR, "error expected: keyword found '" + buffer + "'", start));
                } else {
                    out.add(new Token(kind, s.substring(start, end), start));
                    i = end;
                }
            } else {
                while (i < s.length() && !isSpecial(s.charAt(i)) && !isWhitespace(s.charAt(i))) {
                    i++;
                }
                String word = s.substring(start, i);
                out.add(new Token(TOKENS.getOrDefault(word, Kind.IDENTIFIER), word, start));
            }
        }
    }

    // ---- parser (Kubernetes' Parser) ----------------------------------------------------------------------

    private Token lookahead(Context context) {
        return inContext(tokens.get(next), context);
    }

    private Token consume(Context context) {
        return inContext(tokens.get(next++), context);
    }

    private static Token inContext(Token t, Context context) {
        if (context == Context.VALUES && (t.kind() == Kind.IN || t.kind() == Kind.NOT_IN)) {
            return new Token(Kind.IDENTIFIER, t.literal(), t.position());
        }
        return t;
    }

    private List<LabelRequirement> selector() throws SyntaxError {
        List<LabelRequirement> requirements = new ArrayList<>();
        while (true) {
            Token t = lookahead(Context.VALUES);
            switch (t.kind()) {
                case IDENTIFIER, NOT -> {
                    requirements.add(requirement());
                    Token after = consume(Context.VALUES);
                    if (after.kind() == Kind.END) {
                        return requirements;
                    }
                    if (after.kind() != Kind.COMMA) {
                        throw found(after, "',' or 'end of string'");
                    }
                    Token following = lookahead(Context.VALUES);
                    if (following.kind() != Kind.IDENTIFIER && following.kind() != Kind.NOT) {
                        throw found(following, "identifier after ','");
                    }
                }
                case END -> {
                    return requirements;
                }
                default -> throw found(t, "!, identifier, or 'end of string'");
            }
        }
    }

    /** One requirement; Kubernetes prefixes every error found inside it with "unable to parse requirement". */
    private LabelRequirement requirement() throws SyntaxError {
        try {
            Token keyToken = key();
            LabelRequirement.Operator operator = inferredOperator(keyToken);
            if (operator != null) {
                return build(keyToken, operator, List.of(), keyToken);
            }
            Token operatorToken = consume(Context.KEY_AND_OPERATOR);
            operator = switch (operatorToken.kind()) {
                case IN -> LabelRequirement.Operator.IN;
                case NOT_IN -> LabelRequirement.Operator.NOT_IN;
                case EQUALS, DOUBLE_EQUALS -> LabelRequirement.Operator.EQUALS;
                case NOT_EQUALS -> LabelRequirement.Operator.NOT_EQUALS;
                case GREATER -> LabelRequirement.Operator.GREATER_THAN;
                case LESS -> LabelRequirement.Operator.LESS_THAN;
                default -> throw found(operatorToken, BINARY_OPERATORS);
            };
            Token valuesStart = lookahead(Context.VALUES);
            List<String> values = operator == LabelRequirement.Operator.IN || operator == LabelRequirement.Operator.NOT_IN
                    ? setValues() : exactValue();
            return build(keyToken, operator, values, valuesStart);
        } catch (SyntaxError e) {
            throw new SyntaxError(e.position(), "unable to parse requirement: " + e.getMessage());
        }
    }

    /** The key, after an optional '!'; checked as a label key right away, as Kubernetes does. */
    private Token key() throws SyntaxError {
        negated = false;
        Token t = consume(Context.VALUES);
        if (t.kind() == Kind.NOT) {
            negated = true;
            t = consume(Context.VALUES);
        }
        if (t.kind() != Kind.IDENTIFIER) {
            throw found(t, "identifier");
        }
        List<String> errors = Labels.keyProblems(t.literal());
        if (!errors.isEmpty()) {
            throw new SyntaxError(t.position(), "invalid label key \"" + t.literal() + "\": " + String.join("; ", errors));
        }
        return t;
    }

    /** Exists when the key stands alone, does-not-exist after '!'; null when an operator must follow. */
    private LabelRequirement.Operator inferredOperator(Token keyToken) {
        if (negated) {
            // Kubernetes stops here even if something other than ',' or the end follows; the caller then reports it.
            return LabelRequirement.Operator.DOES_NOT_EXIST;
        }
        Kind following = lookahead(Context.VALUES).kind();
        return following == Kind.END || following == Kind.COMMA ? LabelRequirement.Operator.EXISTS : null;
    }

    /** {@code (a,b,…)}; {@code ()} and empty entries stand for the empty value. */
    private List<String> setValues() throws SyntaxError {
        Token open = consume(Context.VALUES);
        if (open.kind() != Kind.OPEN_PAREN) {
            throw new SyntaxError(open.position(), "found '" + open.literal() + "' expected: '('");
        }
        Token first = lookahead(Context.VALUES);
        switch (first.kind()) {
            case IDENTIFIER, COMMA -> {
                List<String> values = identifierList();
                Token close = consume(Context.VALUES);
                if (close.kind() != Kind.CLOSE_PAREN) {
                    throw found(close, "')'");
                }
                return values;
            }
            case CLOSE_PAREN -> {
                consume(Context.VALUES);
                return List.of("");
            }
            default -> throw found(first, "',', ')' or identifier");
        }
    }

    private List<String> identifierList() throws SyntaxError {
        TreeSet<String> values = new TreeSet<>();
        while (true) {
            Token t = consume(Context.VALUES);
            switch (t.kind()) {
                case IDENTIFIER -> {
                    values.add(t.literal());
                    Token after = lookahead(Context.VALUES);
                    if (after.kind() == Kind.CLOSE_PAREN) {
                        return new ArrayList<>(values);
                    }
                    if (after.kind() != Kind.COMMA) {
                        throw found(after, "',' or ')'");
                    }
                }
                case COMMA -> {
                    if (values.isEmpty()) {
                        values.add(""); // "(,"
                    }
                    Token after = lookahead(Context.VALUES);
                    if (after.kind() == Kind.CLOSE_PAREN) {
                        values.add(""); // ",)"
                        return new ArrayList<>(values);
                    }
                    if (after.kind() == Kind.COMMA) {
                        consume(Context.VALUES);
                        values.add(""); // ",,"
                    }
                }
                default -> throw found(t, "',', or identifier");
            }
        }
    }

    /** The single value of {@code =}, {@code !=}, {@code >}, {@code <}; nothing before ',' or the end is the empty value. */
    private List<String> exactValue() throws SyntaxError {
        Kind following = lookahead(Context.VALUES).kind();
        if (following == Kind.END || following == Kind.COMMA) {
            return List.of("");
        }
        Token t = consume(Context.VALUES);
        if (t.kind() == Kind.IDENTIFIER) {
            return List.of(t.literal());
        }
        throw found(t, "identifier");
    }

    /** Kubernetes' {@code NewRequirement} checks; the position is the key's or the first value's. */
    private static LabelRequirement build(Token key, LabelRequirement.Operator operator, List<String> values, Token valuesStart)
            throws SyntaxError {
        List<Problem> problems = LabelRequirement.problems(key.literal(), operator, values);
        if (!problems.isEmpty()) {
            Problem first = problems.get(0);
            int position = first.path().equals("key") ? key.position() : valuesStart.position();
            StringBuilder message = new StringBuilder();
            for (Problem p : problems) {
                if (message.length() > 0) {
                    message.append("; ");
                }
                message.append(p.path()).append(": Invalid value: \"").append(p.value()).append("\": ").append(p.message());
            }
            throw new SyntaxError(position, message.toString());
        }
        return new LabelRequirement(key.literal(), operator, values);
    }

    private static SyntaxError found(Token t, String expected) {
        if (t.kind() == Kind.ERROR) {
            return new SyntaxError(t.position(), t.literal());
        }
        return new SyntaxError(t.position(), "found '" + t.literal() + "', expected: " + expected);
    }
}
