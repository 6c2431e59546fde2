"""The variant tests quote the compendium verbatim, as test_citations checks for the others."""

from __future__ import annotations

import pytest
import test_chukhonsky
import test_citations as citations
import test_first_attacker_fallback
import test_variants_albansky
import test_variants_amerikansky
import test_variants_arifm_progressiya
import test_variants_armyansky
import test_variants_base_rules
import test_variants_beskozyrny
import test_variants_bolshoy
import test_variants_chukotsky
import test_variants_dlinny
import test_variants_dorozhny
import test_variants_dvukhkozyrny
import test_variants_korol_govno
import test_variants_korolevsky
import test_variants_kozyrny
import test_variants_krestovy
import test_variants_krugly
import test_variants_krugovoy
import test_variants_magadansky
import test_variants_naborny
import test_variants_navalenny
import test_variants_nevidimy
import test_variants_oborotny
import test_variants_otboyny
import test_variants_parnomastny
import test_variants_perevodnoy_2
import test_variants_pokerny
import test_variants_pustoy
import test_variants_pustyshka
import test_variants_s_bolvanom
import test_variants_s_dvumya_jokerami
import test_variants_s_jokerom
import test_variants_s_par
import test_variants_scored
import test_variants_shchelkovsky
import test_variants_shchelkovsky_choice
import test_variants_shchelkovsky_parts
import test_variants_treshka
import test_variants_veryu_ne_veryu
import test_variants_zanudny

MODULES = (test_variants_perevodnoy_2, test_variants_parnomastny, test_variants_korolevsky,
           test_variants_pustoy, test_variants_arifm_progressiya, test_variants_navalenny,
           test_variants_chukotsky, test_variants_beskozyrny,
           test_variants_base_rules, test_variants_kozyrny, test_variants_amerikansky,
           test_variants_dorozhny, test_variants_dvukhkozyrny, test_variants_nevidimy,
           test_variants_magadansky, test_variants_otboyny)
MODULES += (test_variants_s_jokerom, test_variants_s_dvumya_jokerami, test_variants_pustyshka,
            test_variants_bolshoy, test_variants_zanudny, test_variants_treshka,
            test_variants_s_par, test_variants_shchelkovsky_parts)
MODULES += (test_variants_scored, test_variants_korol_govno, test_variants_krugovoy)
MODULES += (test_variants_shchelkovsky,)
MODULES += (test_variants_armyansky, test_variants_albansky, test_variants_dlinny)
MODULES += (test_variants_oborotny,)
MODULES += (test_variants_s_bolvanom,)
MODULES += (test_variants_naborny, test_variants_krugly, test_variants_krestovy)
MODULES += (test_variants_veryu_ne_veryu, test_variants_pokerny)
MODULES += (test_variants_shchelkovsky_choice, test_first_attacker_fallback)
MODULES += (test_chukhonsky,)
CITED = [quote for module in MODULES for quote in citations._cited(module)]


def test_the_variant_tests_cite_the_seed() -> None:
    assert len({name for name, _, _ in CITED}) >= 18


@pytest.mark.skipif(not citations.SEEDS.exists(),
                    reason="shared/seeds is not beside the repository")
@pytest.mark.parametrize(("test", "seed_name", "quote"), CITED,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(CITED)])
def test_every_variant_quote_is_in_the_seed(test: str, seed_name: str, quote: str) -> None:
    citations.test_every_quote_is_in_the_seed(test, seed_name, quote)
