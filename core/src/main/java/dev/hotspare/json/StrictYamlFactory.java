package dev.hotspare.json;

import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.IOContext;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLFactoryBuilder;
import tools.jackson.dataformat.yaml.YAMLParser;

import java.io.CharArrayReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * YAML that means only one thing, read at a cost proportional to its size: its parsers refuse anchors and
 * aliases (Jackson reads an alias such as {@code image: *img} as the text {@code "img"}, not as the anchored value,
 * so a reader of the document and hotspare would disagree about it; a scheduler config has no use for them), and
 * lines longer than {@link #MAX_LINE_CHARS} (SnakeYAML's reader copies its buffer for every block it reads within
 * one token, so a token of n characters costs n² / 1024: a 1 MiB comment took seconds, 16 MiB a minute).
 */
final class StrictYamlFactory extends YAMLFactory {

    private static final long serialVersionUID = 1L;

    /** Longest line of YAML read (64 KiB): far beyond any config line, small enough to keep reading linear. */
    static final int MAX_LINE_CHARS = 64 * 1024;

    StrictYamlFactory(YAMLFactoryBuilder builder) {
        super(builder);
    }

    private StrictYamlFactory(StrictYamlFactory source) {
        super(source);
    }

    // A mapper may copy its factory (Jackson 3 mappers are immutable and copy on reconfiguration): the copy must
    // stay strict.
    @Override
    public StrictYamlFactory copy() {
        return new StrictYamlFactory(this);
    }

    @Override
    protected Object readResolve() {
        return new StrictYamlFactory(this);
    }

    @Override
    protected YAMLParser _createParser(ObjectReadContext readContext, IOContext context, Reader reader) {
        return parser(readContext, context, reader, false);
    }

    @Override
    protected YAMLParser _createParser(ObjectReadContext readContext, IOContext context, char[] data, int offset,
                                       int length, boolean recyclable) {
        return parser(readContext, context, new CharArrayReader(data, offset, length), true);
    }

    @Override
    protected YAMLParser _createParser(ObjectReadContext readContext, IOContext context, InputStream in) {
        return parser(readContext, context, new InputStreamReader(in, StandardCharsets.UTF_8), true);
    }

    @Override
    protected YAMLParser _createParser(ObjectReadContext readContext, IOContext context, byte[] data, int offset,
                                       int length) {
        return _createParser(readContext, context, new ByteArrayInputStream(data, offset, length));
    }

    /** {@code owned}: the reader was made here, so the parser closes it (a caller's reader is closed as Jackson's
     *  AUTO_CLOSE_SOURCE says). */
    private YAMLParser parser(ObjectReadContext readContext, IOContext context, Reader reader, boolean owned) {
        return new StrictYamlParser(readContext, context, this, reader, owned);
    }

    /** Fails the read at the first line longer than {@link #MAX_LINE_CHARS}. */
    private static final class LineLimit extends java.io.FilterReader {
        private int line = 1;
        private int column;

        LineLimit(Reader in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c >= 0) {
                count((char) c);
            }
            return c;
        }

        @Override
        public int read(char[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            for (int i = 0; i < n; i++) {
                count(buffer[offset + i]);
            }
            return n;
        }

        private void count(char c) throws IOException {
            if (c == '\n') {
                line++;
                column = 0;
            } else if (++column > MAX_LINE_CHARS) {
                throw new IOException("line " + line + " is longer than " + MAX_LINE_CHARS
                        + " characters, the longest line a YAML or JSON document may have here");
            }
        }
    }

    /** A parser that fails on the first anchor or alias, naming it. */
    private static final class StrictYamlParser extends YAMLParser {

        StrictYamlParser(ObjectReadContext readContext, IOContext context, StrictYamlFactory factory, Reader reader,
                         boolean owned) {
            super(readContext, context, factory._getBufferRecycler(),
                    readContext.getStreamReadFeatures(factory.getStreamReadFeatures()),
                    readContext.getFormatReadFeatures(factory.getFormatReadFeatures()),
                    factory._loadSettings, new LineLimit(reader), owned);
        }

        @Override
        public JsonToken nextToken() {
            JsonToken token = super.nextToken();
            if (isCurrentAlias()) {
                return _reportError("YAML alias '*" + getString() + "' is not accepted: write the value itself");
            }
            String anchor = getObjectId();
            if (anchor != null) {
                return _reportError("YAML anchor '&" + anchor + "' is not accepted: write each value where it is used");
            }
            return token;
        }
    }
}
