package dev.hotspare.json;

import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.deser.DeserializationProblemHandler;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.introspect.BeanPropertyDefinition;
import tools.jackson.databind.introspect.ClassIntrospector;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.cfg.MapperBuilder;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;
import dev.hotspare.validation.Problem;
import org.snakeyaml.engine.v2.api.LoadSettings;
import dev.hotspare.validation.Suggestions;
import dev.hotspare.validation.ValidationException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The one place hotspare configures Jackson: JSON and YAML mappers that reject unknown fields, write
 * timestamps and durations as ISO-8601, and turn every parse failure into {@link Problem}s with a field
 * path and the bad value instead of a stack trace.
 */
public final class Documents {

    /** Document formats hotspare reads. */
    public enum Format { JSON, YAML }

    /** Largest document read (characters): the HTTP body limit's order, with room for a large config. */
    public static final int MAX_DOCUMENT_CHARS = 4 * 1024 * 1024;
    /** Deepest nesting of objects and lists read. */
    public static final int MAX_NESTING_DEPTH = 64;

    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxDocumentLength(MAX_DOCUMENT_CHARS).maxNestingDepth(MAX_NESTING_DEPTH)
            .maxStringLength(MAX_DOCUMENT_CHARS).maxNumberLength(100).maxNameLength(10_000).build();

    // Jackson 3 mappers are immutable: everything is set on the builder.
    private static final ObjectMapper JSON = configure(JsonMapper.builder(JsonFactory.builder()
            .streamReadConstraints(LIMITS).enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build())).build();
    private static final ObjectMapper YAML = configure(YAMLMapper.builder(new StrictYamlFactory(YAMLFactory.builder()
            .loadSettings(loadSettings()).streamReadConstraints(LIMITS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)))).build();
    private static final ObjectReader JSON_READER = JSON.reader();
    private static final ObjectWriter JSON_WRITER = JSON.writer();
    private static final ObjectReader YAML_READER = YAML.reader();
    private static final ObjectWriter YAML_WRITER = YAML.writer();

    private Documents() {
    }

    /**
     * SnakeYAML Engine's own limits, so that the cost of reading stays proportional to the input: no alias expansion,
     * a bounded size, comments skipped rather than collected. (The depth is bounded by {@link #LIMITS}: Jackson 3's
     * YAML parser checks {@code maxNestingDepth} itself, and SnakeYAML Engine has no depth setting.)
     */
    private static LoadSettings loadSettings() {
        return LoadSettings.builder()
                .setCodePointLimit(MAX_DOCUMENT_CHARS)
                .setMaxAliasesForCollections(0)
                .setAllowDuplicateKeys(false)
                .setAllowRecursiveKeys(false)
                .setParseComments(false)
                .build();
    }

    /**
     * A reader of JSON with hotspare's settings. Readers are immutable, so the shared configuration cannot be
     * changed through them (a mapper handed out could be reconfigured by any caller, for everyone).
     */
    public static ObjectReader jsonReader() {
        return JSON_READER;
    }

    /**
     * A writer of JSON with hotspare's settings (ISO-8601 times and durations); immutable.
     */
    public static ObjectWriter jsonWriter() {
        return JSON_WRITER;
    }

    /**
     * A reader of {@code format} with hotspare's settings; immutable.
     *
     * @param format JSON or YAML
     */
    public static ObjectReader reader(Format format) {
        return format == Format.JSON ? JSON_READER : YAML_READER;
    }

    /**
     * A reader of YAML with hotspare's settings; immutable.
     */
    public static ObjectReader yamlReader() {
        return YAML_READER;
    }

    /**
     * A writer of YAML with hotspare's settings (no document start marker); immutable.
     */
    public static ObjectWriter yamlWriter() {
        return YAML_WRITER;
    }

    /**
     * Makers of JSON tree nodes (text, numbers, objects) for building documents to write.
     */
    public static JsonNodeFactory nodes() {
        return JSON.getNodeFactory();
    }

    /**
     * {@code value} (a tree, a map, a record) converted to {@code type} with hotspare's settings.
     */
    public static <T> T convert(Object value, Class<T> type) {
        return JSON.convertValue(value, type);
    }

    private static ObjectMapper mapper(Format format) {
        return format == Format.JSON ? JSON : YAML;
    }

    /**
     * Format by file name: {@code .json} is JSON, {@code .yaml}/{@code .yml} YAML, anything else YAML (a superset of JSON).
     *
     * @return format by file name: {@code .json} is JSON, {@code .yaml}/{@code .yml} YAML, anything else YAML (a
     *         superset of JSON)
     */
    public static Format formatOf(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".json") ? Format.JSON : Format.YAML;
    }

    /**
     * Reads {@code file} as {@code type}.
     *
     * @throws ValidationException with one problem per thing wrong: a missing file, malformed syntax,
     *                             an unknown field (with a suggestion), a value of the wrong type
     */
    public static <T> T read(Path file, Class<T> type) {
        return read(readText(file), formatOf(file), type);
    }

    /**
     * The text of {@code file} (UTF-8), refusing files larger than {@link #MAX_DOCUMENT_CHARS} bytes before reading
     * them, so a huge or endless file (a device, a pipe) costs nothing.
     *
     * @throws ValidationException naming the file when it is missing, unreadable, not a regular file or too large
     */
    public static String readText(Path file) {
        try {
            if (!Files.exists(file)) {
                throw new ValidationException(Problem.of("", file, "file not found"));
            }
            if (!Files.isRegularFile(file)) {
                throw new ValidationException(Problem.of("", file, "not a regular file"));
            }
            long size = Files.size(file);
            if (size > MAX_DOCUMENT_CHARS) {
                throw new ValidationException(Problem.of("", file, "file is " + size + " bytes; the limit is " + MAX_DOCUMENT_CHARS + " bytes"));
            }
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ValidationException(Problem.of("", file, "file not found"));
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ValidationException(Problem.of("", file, "not UTF-8 text"));
        } catch (IOException e) {
            throw new ValidationException(Problem.of("", file, "cannot read file: " + describe(e)));
        }
    }

    /** An I/O failure in words, without the exception's class name. */
    private static String describe(IOException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? "input/output error" : message;
    }

    /**
     * Reads {@code text} in {@code format} as {@code type}; failures as in {@link #read(Path, Class)}.
     *
     * @param format JSON or YAML
     */
    public static <T> T read(String text, Format format, Class<T> type) {
        UnknownFieldCollector unknown = new UnknownFieldCollector();
        List<Problem> problems = new ArrayList<>();
        T value = null;
        try {
            value = mapper(format).readerFor(type).withHandler(unknown).readValue(text);
            if (value == null) {
                problems.add(Problem.of("", "<empty>", "document is empty"));
            }
        } catch (JacksonException e) {
            problems.addAll(problemsOf(e));
        } catch (ValidationException e) {
            // A record's constructor refused the values; Jackson lets such exceptions through unwrapped.
            problems.addAll(e.problems());
        }
        // Unknown fields first: a misspelt field is often the reason another one looks missing.
        List<Problem> all = new ArrayList<>(unknown.problems);
        if (!problems.isEmpty()) {
            // Jackson buffers unknown fields of creator-bound records and drops them when the creator throws;
            // find them by walking the document against the type.
            for (Problem p : unknownFields(format, text, type)) {
                if (!all.contains(p)) {
                    all.add(p);
                }
            }
        }
        all.addAll(problems);
        if (!all.isEmpty()) {
            throw new ValidationException(all);
        }
        return value;
    }

    /**
     * Records unknown fields instead of failing on the first, so one read reports every unknown field
     * together with every bad value.
     */
    private static final class UnknownFieldCollector extends DeserializationProblemHandler {
        private final List<Problem> problems = new ArrayList<>();

        @Override
        public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p, ValueDeserializer<?> deserializer,
                                             Object beanOrClass, String propertyName) {
            String path = pathOf(p.streamReadContext());
            Collection<String> known = new ArrayList<>();
            for (Object id : deserializer.getKnownPropertyNames()) {
                known.add(id.toString());
            }
            String hint = Suggestions.closest(propertyName, known)
                    .map(s -> "; did you mean '" + s + "'?")
                    .orElse("; known fields: " + known.stream().sorted().collect(Collectors.joining(", ")));
            problems.add(Problem.of(path, propertyName, "unknown field" + hint));
            p.skipChildren();
            return true;
        }
    }

    private static List<Problem> unknownFields(Format format, String text, Class<?> type) {
        List<Problem> found = new ArrayList<>();
        try {
            ObjectMapper mapper = mapper(format);
            scan(mapper, mapper.readTree(text), mapper.constructType(type), "", found);
        } catch (RuntimeException e) {
            // the main pass already reported why the document cannot be read
        }
        return found;
    }

    private static void scan(ObjectMapper mapper, JsonNode node, JavaType type, String path, List<Problem> found) {
        if (node == null || node.isNull()) {
            return;
        }
        if (type.isCollectionLikeType() || type.isArrayType()) {
            for (int i = 0; i < node.size(); i++) {
                scan(mapper, node.get(i), type.getContentType(), path + "[" + i + "]", found);
            }
            return;
        }
        if (type.isReferenceType()) {
            scan(mapper, node, type.getContentType(), path, found);
            return;
        }
        if (!node.isObject() || type.isMapLikeType() || !type.getRawClass().getName().startsWith("dev.hotspare.")
                || type.isEnumType()) {
            return;
        }
        ClassIntrospector introspector = mapper.deserializationConfig().classIntrospectorInstance();
        BeanDescription description = introspector.introspectForDeserialization(type, introspector.introspectClassAnnotations(type));
        if (description.findJsonValueAccessor() != null) {
            // Written as a single value (@JsonValue) and read back by its own creator, which reports its own
            // unknown fields: its Java properties say nothing about the document's.
            return;
        }
        java.util.Map<String, JavaType> known = new java.util.HashMap<>();
        for (BeanPropertyDefinition property : description.findProperties()) {
            known.put(property.getName(), property.getPrimaryType());
        }
        node.propertyNames().forEach(field -> {
            String fieldPath = path.isEmpty() ? field : path + "." + field;
            JavaType fieldType = known.get(field);
            if (fieldType == null) {
                String hint = Suggestions.closest(field, known.keySet())
                        .map(s -> "; did you mean '" + s + "'?")
                        .orElse("; known fields: " + known.keySet().stream().sorted().collect(Collectors.joining(", ")));
                found.add(Problem.of(fieldPath, field, "unknown field" + hint));
            } else {
                scan(mapper, node.get(field), fieldType, fieldPath, found);
            }
        });
    }

    /** Renders a parser position as {@code a.b[2].c}. */
    static String pathOf(TokenStreamContext context) {
        List<String> parts = new ArrayList<>();
        for (TokenStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject() && c.currentName() != null) {
                parts.add(0, "." + c.currentName());
            } else if (c.inArray()) {
                parts.add(0, "[" + Math.max(0, c.getCurrentIndex()) + "]");
            }
        }
        String joined = String.join("", parts);
        return joined.startsWith(".") ? joined.substring(1) : joined;
    }

    /**
     * Writes {@code value} as pretty-printed JSON.
     */
    public static String toJson(Object value) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    /**
     * Writes {@code value} as one line of JSON.
     */
    public static String toJsonLine(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    /**
     * Translates a Jackson failure into problems. A {@link ValidationException} thrown from a record's
     * compact constructor during binding is unwrapped, and its paths are prefixed with where Jackson was.
     *
     * @param e the exception
     */
    public static List<Problem> problemsOf(JacksonException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            String path = pathOf(unknown);
            Collection<String> known = unknown.getKnownPropertyIds().stream().map(Object::toString).toList();
            String hint = Suggestions.closest(unknown.getPropertyName(), known)
                    .map(s -> "; did you mean '" + s + "'?")
                    .orElse("; known fields: " + known.stream().sorted().collect(Collectors.joining(", ")));
            return List.of(Problem.of(path, unknown.getPropertyName(), "unknown field" + hint));
        }
        if (e instanceof ValueInstantiationException instantiation
                && instantiation.getCause() instanceof ValidationException inner) {
            String prefix = pathOf(instantiation);
            List<Problem> out = new ArrayList<>();
            for (Problem p : inner.problems()) {
                out.add(new Problem(join(prefix, p.path()), p.value(), p.message()));
            }
            return out;
        }
        if (e instanceof ValueInstantiationException instantiation && instantiation.getCause() != null) {
            return List.of(Problem.of(pathOf(instantiation), "<invalid>", String.valueOf(instantiation.getCause().getMessage())));
        }
        if (e instanceof InvalidFormatException format) {
            return List.of(Problem.of(pathOf(format), format.getValue(),
                    "expected " + describeType(format.getTargetType())));
        }
        if (e instanceof MismatchedInputException mismatch) {
            String path = pathOf(mismatch);
            String message = firstLine(mismatch.getOriginalMessage());
            if (message.contains("Missing required creator property")) {
                return List.of(Problem.of(path, Problem.MISSING, "required field is missing"));
            }
            java.util.regex.Matcher fraction = FRACTION.matcher(message);
            if (fraction.find()) {
                return List.of(Problem.of(path, fraction.group(1), "must be a whole number"));
            }
            String raw = mismatch.getOriginalMessage();
            if (mismatch.getTargetType() != null && raw != null && raw.startsWith("Cannot ")) {
                // Jackson's text names the Java type ("Cannot deserialize value of type `dev.hotspare...`"): say
                // what was expected in the document's terms instead.
                return List.of(Problem.of(path, "<invalid>", "expected " + describeType(mismatch.getTargetType())));
            }
            return List.of(Problem.of(path, "<invalid>", message));
        }
        if (e instanceof DatabindException mapping) {
            Throwable cause = mapping.getCause();
            if (cause instanceof ValidationException inner) {
                String prefix = pathOf(mapping);
                return inner.problems().stream()
                        .map(p -> new Problem(join(prefix, p.path()), p.value(), p.message())).toList();
            }
            return List.of(Problem.of(pathOf(mapping), "<invalid>",
                    firstLine(cause != null && cause.getMessage() != null ? cause.getMessage() : mapping.getOriginalMessage())));
        }
        TokenStreamLocation location = e.getLocation();
        String where = location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        return List.of(Problem.of("", "<syntax>", "malformed document" + where + ": " + firstLine(e.getOriginalMessage())));
    }

    private static String join(String prefix, String suffix) {
        if (prefix.isEmpty()) {
            return suffix;
        }
        if (suffix.isEmpty()) {
            return prefix;
        }
        return suffix.startsWith("[") ? prefix + suffix : prefix + "." + suffix;
    }

    /**
     * Renders Jackson's reference chain as {@code a.b[2].c}.
     *
     * @param e the exception
     */
    public static String pathOf(DatabindException e) {
        StringBuilder path = new StringBuilder();
        for (tools.jackson.core.JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String describeType(Class<?> type) {
        if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            List<String> names = new ArrayList<>();
            for (Object c : constants) {
                names.add(c.toString());
            }
            return "one of " + String.join(", ", names);
        }
        return switch (type.getSimpleName()) {
            case "Instant" -> "an ISO-8601 timestamp such as 2026-01-01T00:00:00Z";
            case "Duration" -> "a duration such as 500ms, 30s, 40m, 2h30m or PT40M";
            case "int", "Integer", "long", "Long" -> "a whole number";
            case "double", "Double", "BigDecimal" -> "a number";
            case "boolean", "Boolean" -> "true or false";
            case "String" -> "text";
            default -> type.isArray() || java.util.Collection.class.isAssignableFrom(type) ? "a list"
                    : type.getName().startsWith("java.") && !java.util.Map.class.isAssignableFrom(type)
                    ? "a value of another kind" : "an object";
        };
    }

    private static String firstLine(String message) {
        return cleanMessage(message);
    }

    private static final java.util.regex.Pattern FRACTION = java.util.regex.Pattern.compile(
            "^Cannot coerce Floating-point value \\(([^)]*)\\)");
    private static final java.util.regex.Pattern DUPLICATE = java.util.regex.Pattern.compile(
            "^Duplicate (?:Object property|field) [\"']([^\"']*)[\"']");
    private static final java.util.regex.Pattern WRAPPED_IO = java.util.regex.Pattern.compile(
            "Unexpected IOException \\(of type [^)]*\\):\\s*");
    private static final java.util.regex.Pattern EXCEPTION_NAME = java.util.regex.Pattern.compile(
            "(?:[a-z_][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error)(?::\\s*)?");
    private static final java.util.regex.Pattern CLASS_NAME = java.util.regex.Pattern.compile(
            "`?(?:[a-z_][\\w$]*\\.){2,}[A-Z][\\w$]*(?:\\([^)]*\\))?`?");

    /**
     * A parser's message as one line for a user: the first line only, with no Java class name in it (Jackson and
     * SnakeYAML name their exceptions, target types and events): a second document or trailing content is said in
     * words, an exception's name is dropped, and any other class name becomes "a construct that is not supported".
     *
     * @param message the parser's message, possibly null
     * @return one clean line
     */
    public static String cleanMessage(String message) {
        if (message == null || message.isBlank()) {
            return "invalid value";
        }
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        if (line.startsWith("Expected a property name (Scalar value in YAML)")) {
            // Jackson 3's YAML parser on a non-scalar key (SnakeYAML 1 named an event class here).
            return "a construct that is not supported (such as a complex '?' key)";
        }
        java.util.regex.Matcher duplicate = DUPLICATE.matcher(line);
        if (duplicate.find()) {
            // Jackson 3 words it "Duplicate Object property"; keep the message hotspare has always given.
            return "Duplicate field '" + duplicate.group(1) + "'";
        }
        if (line.startsWith("Trailing token")) {
            return "more than one document, or something after the document; send exactly one";
        }
        if (line.startsWith("Cannot construct instance of") || line.startsWith("Cannot deserialize value of type")) {
            // Jackson names the Java type it wanted; say what the document should hold instead.
            return line.matches("^Cannot [a-z ]+ `[^`]*\\[\\]`.*") ? "expected a list" : "not a value of the expected kind";
        }
        line = WRAPPED_IO.matcher(line).replaceAll("");
        line = EXCEPTION_NAME.matcher(line).replaceAll("");
        line = CLASS_NAME.matcher(line).replaceAll("a construct that is not supported (such as a complex '?' key)");
        return line.isBlank() ? "invalid value" : line.strip();
    }

    private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B configure(B builder) {
        // java.time and Optional are built into Jackson 3's databind (no JavaTimeModule / Jdk8Module).
        return builder
                // One duration syntax everywhere: documents take 40m / 2h30m / 500ms as well as ISO-8601.
                .addModule(new tools.jackson.databind.module.SimpleModule("hotspare-durations")
                        .addDeserializer(java.time.Duration.class, new FlexibleDurationDeserializer()))
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                // A second YAML document, or anything after the JSON value, would be silently ignored.
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                // 1.5 for a whole number is a mistake, not 1.
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(DateTimeFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DateTimeFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }

    /** Reads a duration written as {@code 40m}, {@code 2h30m}, {@code 500ms} or ISO-8601; numbers stay seconds. */
    private static final class FlexibleDurationDeserializer
            extends tools.jackson.databind.deser.std.StdScalarDeserializer<java.time.Duration> {

        FlexibleDurationDeserializer() {
            super(java.time.Duration.class);
        }

        @Override
        public java.time.Duration deserialize(tools.jackson.core.JsonParser parser,
                                              tools.jackson.databind.DeserializationContext context)
                {
            if (parser.currentToken() == tools.jackson.core.JsonToken.VALUE_STRING) {
                String text = parser.getString();
                try {
                    return dev.hotspare.validation.Durations.parse("duration", text);
                } catch (ValidationException e) {
                    throw context.weirdStringException(text, java.time.Duration.class, "not a duration");
                }
            }
            return tools.jackson.databind.ext.javatime.deser.DurationDeserializer.INSTANCE.deserialize(parser, context);
        }
    }
}
