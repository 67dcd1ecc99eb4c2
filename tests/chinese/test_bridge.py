"""The journal bridge: the seed rows and the user's map."""

from __future__ import annotations

import pytest

from auditor.chinese.bridge import load_bridge
from auditor.errors import ConfigError


def test_seed_bridge_has_the_five_rows_and_the_counterexample():
    bridge = load_bridge()
    assert len(bridge) == 6
    assert bridge.lookup("中华流行病学杂志").nlm_ta == "Zhonghua Liu Xing Bing Xue Za Zhi"
    assert bridge.lookup("《中华医学杂志》").issn == "0376-2491"
    assert bridge.lookup("中国全科医学").nlm_ta is None
    assert bridge.lookup("中华医学") is None and bridge.lookup(None) is None


def test_user_map_overrides_and_extends(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text(
        "journal,issn,nlm_ta,nlm_id\n中国全科医学,1007-9572,Zhongguo Quan Ke Yi Xue,1\n"
        "护理学杂志,1001-4152,Hu Li Xue Za Zhi,2\n",
        encoding="utf-8",
    )
    bridge = load_bridge(str(path))
    assert bridge.lookup("中国全科医学").nlm_ta == "Zhongguo Quan Ke Yi Xue"
    assert bridge.lookup("护理学杂志").issn == "1001-4152"


@pytest.mark.parametrize(
    "text",
    [
        "name,issn\n中华,0376-2491\n",
        "journal,issn,nlm_ta,nlm_id\n中华,bad,TA,1\n",
        'journal,issn,nlm_ta,nlm_id\n中华,0376-2491,"Bad"" OR x[ta]",1\n',
    ],
)
def test_bad_user_map_is_a_config_error(tmp_path, text):
    path = tmp_path / "m.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        load_bridge(str(path))


def test_missing_user_map_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        load_bridge(str(tmp_path / "absent.csv"))
