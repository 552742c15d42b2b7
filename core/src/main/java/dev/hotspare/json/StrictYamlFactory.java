package dev.hotspare.json;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

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

    @Override
    protected YAMLParser _createParser(Reader reader, IOContext context) {
        return new StrictYamlParser(context, this, reader);
    }

    @Override
    protected YAMLParser _createParser(char[] data, int offset, int length, IOContext context, boolean recyclable) {
        return new StrictYamlParser(context, this, new CharArrayReader(data, offset, length));
    }

    @Override
    protected YAMLParser _createParser(InputStream in, IOContext context) {
        return new StrictYamlParser(context, this, new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    @Override
    protected YAMLParser _createParser(byte[] data, int offset, int length, IOContext context) {
        return _createParser(new ByteArrayInputStream(data, offset, length), context);
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

        StrictYamlParser(IOContext context, StrictYamlFactory factory, Reader reader) {
            super(context, factory._parserFeatures, factory._yamlParserFeatures, factory._loaderOptions, factory.getCodec(),
                    new LineLimit(reader));
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken token = super.nextToken();
            if (isCurrentAlias()) {
                throw _constructError("YAML alias '*" + getText() + "' is not accepted: write the value itself");
            }
            if (getCurrentAnchor() != null) {
                throw _constructError("YAML anchor '&" + getCurrentAnchor() + "' is not accepted: write each value where it is used");
            }
            return token;
        }
    }
}
