/**
 * UNTDID 7143 item classification list identifiers (BR-CL-13).
 * Codes as the CEN/TC 434 validation artefacts 1.3.16 carry them (EUPL-1.2; see code_list.ts).
 * @module
 */
import { codeList } from "./code_list.ts";

/** UNTDID 7143 item type identification code (185 codes). */
export const UNTDID_7143 = codeList(
  "UNTDID 7143 item type identification code",
  "AA AB AC AD AE AF AG AH AI AJ AK AL AM AN AO AP AQ AR AS AT AU AV AW AX AY AZ BA BB BC BD BE BF BG BH BI BJ BK " +
    "BL BM BN BO BP BQ BR BS BT BU BV BW BX BY BZ CC CG CL CR CV DR DW EC EF EMD EN FS GB GN GMN GS HS IB IN IS IT " +
    "IZ MA MF MN MP NB ON PD PL PO PPI PV QS RC RN RU RY SA SG SK SN SRS SRT SRU SRV SRW SRX SRY SRZ SS SSA SSB SSC " +
    "SSD SSE SSF SSG SSH SSI SSJ SSK SSL SSM SSN SSO SSP SSQ SSR SSS SST SSU SSV SSW SSX SSY SSZ ST STA STB STC STD " +
    "STE STF STG STH STI STJ STK STL STM STN STO STP STQ STR STS STT STU STV STW STX STY STZ SUA SUB SUC SUD SUE " +
    "SUF SUG SUH SUI SUJ SUK SUL SUM TG TSN TSO TSP TSQ TSR TSS TST TSU UA UP VN VP VS VX ZZZ",
);
