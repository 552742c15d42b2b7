package dev.hotspare.json;

import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.internal.PoolState;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DocumentsTest {

    @Test
    void readsAPoolSpecFromYamlAndJsonAlike() {
        PoolSpec yaml = Documents.read("name: ci\nsize: 3\nrunningCount: 1\nhibernateAfter: PT2H\nclaimLifetime:\n  default: PT1H\n",
                Documents.Format.YAML, PoolSpec.class);
        PoolSpec json = Documents.read("{\"name\":\"ci\",\"size\":3,\"runningCount\":1,\"hibernateAfter\":\"PT2H\",\"claimLifetime\":{\"default\":\"PT1H\"}}",
                Documents.Format.JSON, PoolSpec.class);
        assertThat(yaml).isEqualTo(json);
        assertThat(yaml.hibernateAfter()).contains(Duration.ofHours(2));
        assertThat(yaml.claimLifetime().defaultLifetime()).contains(Duration.ofHours(1));
    }

    @Test
    void durationsInDocumentsTakeTheShortFormTheIsoFormAndSeconds() {
        PoolSpec shortForm = Documents.read("name: ci\nsize: 3\nhibernateAfter: 2h\nclaimLifetime:\n  default: 1h30m\n",
                Documents.Format.YAML, PoolSpec.class);
        PoolSpec isoForm = Documents.read("name: ci\nsize: 3\nhibernateAfter: PT2H\nclaimLifetime:\n  default: PT1H30M\n",
                Documents.Format.YAML, PoolSpec.class);
        PoolSpec seconds = Documents.read("name: ci\nsize: 3\nhibernateAfter: 7200\nclaimLifetime:\n  default: 5400\n",
                Documents.Format.YAML, PoolSpec.class);
        assertThat(shortForm).isEqualTo(isoForm).isEqualTo(seconds);
        assertThatThrownBy(() -> Documents.read("name: ci\nsize: 3\nhibernateAfter: soon\n", Documents.Format.YAML, PoolSpec.class))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).containsExactly(
                        new Problem("hibernateAfter", "soon", "expected a duration such as 500ms, 30s, 40m, 2h30m or PT40M")));
    }

    @Test
    void reportsUnknownFieldsTogetherWithBadValues() {
        assertThatThrownBy(() -> Documents.read("name: Bad_Pool\nsize: -1\nrunningCout: 2\n", Documents.Format.YAML, PoolSpec.class))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).containsExactly(
                        new Problem("runningCout", "runningCout", "unknown field; did you mean 'runningCount'?"),
                        new Problem("name", "Bad_Pool", "must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit"),
                        new Problem("size", "-1", "must be >= 0")));
    }

    @Test
    void reportsMissingRequiredFieldsAndNestedPaths() {
        assertThatThrownBy(() -> Documents.read("runningCount: 1\n", Documents.Format.YAML, PoolSpec.class))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems())
                        .extracting(Problem::path).containsExactly("name", "size"));
        assertThatThrownBy(() -> Documents.read("{\"members\":[{\"id\":\"a\",\"createdAt\":\"yesterday\"}]}", Documents.Format.JSON, PoolState.class))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems().get(0).path()).isEqualTo("members[0].createdAt"));
    }

    @Test
    void malformedSyntaxAndMissingFilesAreProblemsNotStackTraces() {
        assertThatThrownBy(() -> Documents.read("{\"name\": ", Documents.Format.JSON, PoolSpec.class))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems().get(0).message()).startsWith("malformed document"));
        assertThatThrownBy(() -> Documents.read(Path.of("/definitely/not/here.yaml"), PoolSpec.class))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems().get(0).message()).isEqualTo("file not found"));
        assertThatThrownBy(() -> Documents.read("", Documents.Format.YAML, PoolSpec.class)).isInstanceOf(ValidationException.class);
    }
}
