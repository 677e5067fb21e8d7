package main

import (
	"slices"
	"testing"
)

func TestParseSeeds(t *testing.T) {
	for _, tc := range []struct {
		list    string
		want    []uint64
		wantErr bool
	}{
		{list: "11", want: []uint64{11}},
		{list: "11-14, 20", want: []uint64{11, 12, 13, 14, 20}},
		{list: "7-7", want: []uint64{7}},
		{list: "14-11", wantErr: true},
		{list: "11-", wantErr: true},
		{list: "eleven", wantErr: true},
		{list: "", wantErr: true},
	} {
		got, err := parseSeeds(tc.list)
		if (err != nil) != tc.wantErr || !slices.Equal(got, tc.want) {
			t.Errorf("parseSeeds(%q) = %v, %v; want %v, error %v", tc.list, got, err, tc.want, tc.wantErr)
		}
	}
}
